// The one way a question enters the relay, whatever its source: an MCP server's elicitation today (mcp.ts),
// the HTTP API and the MCP endpoint next. Each source translates its own protocol into ask(request, context);
// the intake applies the source's policy (secret refusal, rate limit), fixes who may answer, and asks.
import { RelayError } from '../errors.js';
import type { FormAsk, RateLimit, Relay } from '../relay.js';
import {
  peopleNamed,
  type Answerers,
  type Origin,
  type Outcome,
  type Place,
  type Question,
  type QuestionSource,
  type RoundRef,
  type ServerIdentity,
} from '../types.js';

/** A question as any source asks it. */
export type QuestionRequest =
  | { mode: 'form'; message: string; requestedSchema: unknown }
  | { mode: 'url'; message: string; url: string; elicitationId: string };

/** Who asks, for whom, and for how long. */
export interface AskContext {
  /** The asking server's name: its policies and its questions' cards are looked up by it. */
  server: string;
  serverInfo?: ServerIdentity;
  /** Who started the work that asks, and where; the person asked. */
  origin: Origin;
  /** How long the person may take, in ms. */
  timeoutMs: number;
  /** Aborts when the question is no longer wanted; its reason is the relay's EndReason ('withdrawn', 'call_ended'). */
  signal: AbortSignal;
  /** Which source asks (a metrics label); default 'mcp'. */
  source?: QuestionSource;
  /** The durable round request it answers (see Question.round). */
  round?: RoundRef;
}

/** Whom an asker names, instead of a server's policy: a person, people, a user group or anyone in a channel. */
export type Recipients = { user: string } | { users: string[] } | { usergroup: string } | { channel: string };

/** A question an API client asks and nobody waits on (its outcome is read from the store). */
export interface OpenContext {
  /** The API client's name: named on the card as the asker; its questions belong to it. */
  client: string;
  to: Recipients;
  /** The workspace (Slack team id) of `to`, when the deployment serves several. */
  teamId?: string;
  /** The Enterprise Grid org whose org-wide installation serves `teamId` (Origin's `enterpriseId`). */
  enterpriseId?: string;
  timeoutMs: number;
  /** The client's limit on new questions, across replicas. */
  rateLimit?: RateLimit;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
}

/** The relay's one port for questions: resolves with exactly one outcome for the source. */
export interface QuestionIntake {
  ask(request: QuestionRequest, context: AskContext): Promise<Outcome>;
}

/** The server name an API client's questions carry (its card's headline, its rate-limit counter). */
export const apiServerName = (client: string): string => `api:${client}`;

/** Who may answer a question (implemented by the chat side, which knows its users and groups). */
export interface AnswererResolver {
  /** Undefined when only the requester may; rejects with RelayError('answerers_unavailable') when it cannot tell. */
  answerersFor(server: string, origin: Origin): Promise<Answerers | undefined>;
  /** The answerers an asker names (user groups resolved); rejects like answerersFor. */
  answerersTo(to: Recipients, teamId?: string): Promise<Answerers>;
}

/** What the intake needs to know of each server's policy. */
export interface SourcePolicies {
  of(server: string): { rateLimit?: RateLimit; refuseSecrets: boolean };
}

export interface IntakeDeps {
  relay: Pick<Relay, 'askForm' | 'askUrl'>;
  answerers: AnswererResolver;
  policies: SourcePolicies;
  /** Throws RelayError('invalid_schema') for a form whose fields look like secrets. */
  refuseSecrets: (requestedSchema: unknown) => void;
}

export class Intake implements QuestionIntake {
  constructor(private readonly deps: IntakeDeps) {}

  async ask(request: QuestionRequest, context: AskContext): Promise<Outcome> {
    const { relay, policies } = this.deps;
    const policy = policies.of(context.server);
    // Who may answer is fixed when the question is asked (user groups resolved now) and stored with it.
    const answerers = await this.deps.answerers.answerersFor(context.server, context.origin);
    const common: Omit<FormAsk, 'requestedSchema'> = {
      server: context.server,
      userId: context.origin.userId,
      origin: context.origin,
      message: request.message,
      timeoutMs: context.timeoutMs,
      signal: context.signal,
      ...(policy.rateLimit ? { rateLimit: policy.rateLimit } : {}),
      ...(context.serverInfo ? { serverInfo: context.serverInfo } : {}),
      ...(answerers ? { answerers } : {}),
      ...(context.source ? { source: context.source } : {}),
      ...(context.round ? { round: context.round } : {}),
    };
    if (request.mode === 'url') {
      return relay.askUrl({ ...common, url: request.url, elicitationId: request.elicitationId });
    }
    if (policy.refuseSecrets) this.deps.refuseSecrets(request.requestedSchema);
    return relay.askForm({ ...common, requestedSchema: request.requestedSchema });
  }
}

/**
 * Asks the people an API client names, without waiting: the card goes to the person's DM, to the multi-person
 * DM of several listed people or of a user group's members (one card in each DM of at most 8 of them when they
 * are more, so every one of them sees it; the first to answer wins), or into the channel.
 */
export async function openQuestion(
  deps: { relay: Pick<Relay, 'open'>; answerers: Pick<AnswererResolver, 'answerersTo'> },
  request: { message: string; requestedSchema: unknown },
  context: OpenContext,
): Promise<Question> {
  const { teamId, enterpriseId } = context;
  const answerers = await deps.answerers.answerersTo(context.to, teamId);
  const asked = askedWhere(context.to, answerers);
  if (!asked) throw new RelayError('no_answerers', 'the user group has no members to ask');
  const { person, place } = asked;
  return deps.relay.open({
    server: apiServerName(context.client),
    client: context.client,
    source: 'api',
    userId: person,
    origin: {
      userId: context.client,
      ...(teamId === undefined ? {} : { teamId }),
      ...(enterpriseId === undefined ? {} : { enterpriseId }),
    },
    message: request.message,
    requestedSchema: request.requestedSchema,
    timeoutMs: context.timeoutMs,
    answerers,
    place,
    ...(context.rateLimit ? { rateLimit: context.rateLimit } : {}),
    ...(context.callbackUrl === undefined ? {} : { callbackUrl: context.callbackUrl }),
    ...(context.metadata === undefined ? {} : { metadata: context.metadata }),
  });
}

/**
 * Most people a multi-person DM takes besides the bot (Slack's conversations.open refuses more: a group DM has
 * at most 9 members).
 */
const MPIM_MAX_PEOPLE = 8;

/** The question's person (the channel, else the first person named) and its card's place; undefined: nobody. */
function askedWhere(to: Recipients, answerers: Answerers): { person: string; place: Place } | undefined {
  if ('channel' in to) return { person: to.channel, place: { channel: to.channel } };
  const [first, ...others] = peopleNamed(answerers);
  return first === undefined ? undefined : { person: first, place: placeOfPeople(first, others) };
}

/**
 * Where people (at least `first`) see the card: one person's DM; the multi-person DM of up to 8; else one card
 * in each of several multi-person DMs of at most 8, in the order named (20 people: 8, 8 and 4).
 */
function placeOfPeople(first: string, others: string[]): Place {
  if (others.length === 0) return { dm: first };
  const people = [first, ...others];
  if (people.length <= MPIM_MAX_PEOPLE) return { mpim: people };
  const groups: string[][] = [];
  for (let at = 0; at < people.length; at += MPIM_MAX_PEOPLE)
    groups.push(people.slice(at, at + MPIM_MAX_PEOPLE));
  return { mpims: groups };
}
