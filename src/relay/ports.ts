// What the relay needs from the boundaries passed in (durable state, the chat surface, time) and whom it tells.
// Implemented by src/store, src/slack, src/clock.ts and the metrics and the audit; src/relay imports none of them.
import type { Clock } from '../clock.js';
import type {
  Attached,
  CardRef,
  Draft,
  EndReason,
  FinishResult,
  NewQuestion,
  Outcome,
  Question,
} from './types.js';

/** At most `max` new questions per `perMs` milliseconds from one server, across replicas. */
export interface RateLimit {
  /** New questions allowed per window. */
  max: number;
  /** Window length in ms; a fixed window that starts with its first question. */
  perMs: number;
}

/** What a new question's record is created with besides its fields. */
export interface CreateOptions {
  /** Per-server limit on new questions; beyond it create rejects with an error of code 'rate_limited'. */
  rateLimit?: RateLimit;
  /** Reminder times, epoch ms on the store's clock (compare with the returned createdAt/deadline). */
  remindAt?: number[];
}

/** What the relay needs from durable state (implemented by src/store). */
export interface RelayStore {
  create(question: NewQuestion, options?: CreateOptions): Promise<Question>;
  get(id: string): Promise<Question | undefined>;
  /** Records the posted cards; answers what it found (Attached), the same when tried again. */
  attachCards(id: string, cards: [CardRef, ...CardRef[]]): Promise<Attached>;
  /**
   * The attacher drew the end of a question that ended before its cards were attached: the answer's content,
   * kept for that drawing, may go once its holder has it too. A question pending or gone is left alone.
   */
  endShownOnCards(id: string): Promise<void>;
  /** The one atomic transition; `endedBy` is the person whose act ended it, stored with the outcome. */
  finish(id: string, outcome: Outcome, reason: EndReason, endedBy?: string): Promise<FinishResult>;
  /** One person's draft of a pending question's form, when they have one. */
  draft(id: string, userId: string): Promise<Draft | undefined>;
  /** Keeps one person's draft while the question is pending; false when it has ended meanwhile. */
  saveDraft(id: string, userId: string, draft: Draft): Promise<boolean>;
}

/**
 * What changed on a question's card (`byUserId`: the person whose act ended it, when one did): 'ended' = it
 * ended, those who follow questions (the App Home) are told and the card shows it; 'ended_card_waits' = it
 * ended, but its card (a 2026 round link's, see round-links.ts) keeps its buttons until the call ends, so only
 * those who follow are told; 'settled' = that call ended, and the card shows the end (those who follow were
 * told already); 'url_completed' = its link's step is done. `handOff`: an update Slack's pacing puts in a later
 * slot (chat.update, one per 1.2 s per workspace past its burst) is only queued durably, where any replica's
 * outbox makes it, and updateCard does not wait for it: a stopping replica does not wait those slots out.
 */
export type CardChange =
  | { kind: 'ended' | 'ended_card_waits' | 'settled'; byUserId?: string; handOff?: boolean }
  | { kind: 'url_completed' };

/**
 * What posting a question gave: every card that is out (one per place the question goes), and why the others
 * are not, when one could not be posted.
 */
export interface PostedCards {
  cards: CardRef[];
  failure?: unknown;
}

/** How the poster of a question's cards follows their posts (CardDelivery). */
export interface Posting {
  /** Called once every post is durable (any replica would make them if this one died). */
  queued?: () => void;
  /** True once the replica stops: a post refused while Redis is unavailable is not queued again. */
  stopped?: () => boolean;
  /** Hears each post refused while Redis is unavailable, before it is queued again. */
  onRetry?: (error: unknown) => void;
}

/** Where people see questions (implemented by src/slack). */
export interface Surface {
  /**
   * Posts the question's card in every place it goes; rejects only when it posted none. A post refused while
   * Redis is unavailable (redis_unavailable) is queued again, as the same post, until the question's deadline or
   * `posting.stopped`; any other failure (Slack refused the post) is final at once.
   */
  postQuestion(question: Question, posting?: Posting): Promise<PostedCards>;
  /** The one way a posted card changes (every card of the question); a question without one is left alone. */
  updateCard(question: Question, change: CardChange): Promise<void>;
  /** Nudges those who may answer a question that is still pending; `at` (epoch ms) names the reminder. */
  remind(question: Question, at?: number): Promise<void>;
}

/**
 * Hears each question this replica creates, and each one whose end this replica won (metrics, the audit): so
 * every question is heard created once and ended once across replicas. Its methods return at once, never throw.
 */
export interface RelayObserver {
  created(question: Question): void;
  /** The question as it ended: its outcome and reason set. */
  ended(question: Question): void;
}

/** One observer that tells each of `observers` in turn. */
export function observeAll(...observers: RelayObserver[]): RelayObserver {
  return {
    created: (question) => observers.forEach((o) => o.created(question)),
    ended: (question) => observers.forEach((o) => o.ended(question)),
  };
}

/** Time as the relay sees it: now and timers, passed in so that tests can run them by hand. */
export type RelayClock = Pick<Clock, 'now' | 'schedule'>;

/** Where the relay reports what went wrong with a question (pino in production). */
export interface RelayLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
