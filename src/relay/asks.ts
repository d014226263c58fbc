// What the relay is asked: a form, a link, or a question nobody waits on (Relay.askForm, askUrl, open), and
// how one question is ended (Relay.end).
import type { RateLimit } from './ports.js';
import type {
  Answerers,
  FinishResult,
  Origin,
  Place,
  QuestionSource,
  RoundRef,
  ServerIdentity,
} from './types.js';

export interface FormAsk {
  server: string;
  /** The person asked. */
  userId: string;
  /** Who started the tool call that asks, and where. */
  origin: Origin;
  message: string;
  requestedSchema: unknown;
  timeoutMs: number;
  /**
   * Aborts when the server withdraws the request or the call ends; the question then ends with the
   * signal's `reason` when that is 'call_ended', else as 'withdrawn'.
   */
  signal: AbortSignal;
  rateLimit?: RateLimit;
  /** The server's own name and version, shown with the question. */
  serverInfo?: ServerIdentity;
  /** Who may answer besides `userId` alone (resolved by the surface's policy); only `userId` when absent. */
  answerers?: Answerers; /** Where the question came from; 'mcp' when absent. */
  source?: QuestionSource;
  /** The durable round request it answers (see Question.round). */
  round?: RoundRef;
}

/** A question nobody waits on (see Relay.open): `client` names the API client that asked. */
export interface DetachedAsk extends Omit<FormAsk, 'signal'> {
  client: string;
  /** Where the card goes (the client's `to`). */
  place: Place;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
}

export interface UrlAsk extends Omit<FormAsk, 'requestedSchema'> {
  url: string;
  elicitationId: string;
}

export interface EndOptions {
  /** The person whose act ended it, named on the card. */
  byUserId?: string;
  /**
   * Runs after the transition and before the card update, e.g. a listener's ack, which Slack wants within
   * 3 s while the card update may wait for the outbox.
   */
  beforeCard?: (result: FinishResult) => Promise<void>;
  /** A card update paced to a later slot is only queued, not awaited (CardChange `handOff`): a stop. */
  handOffCard?: boolean;
}
