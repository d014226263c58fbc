// /api/v1/questions: ask (POST), read with an optional long-poll (GET ?wait=), withdraw (DELETE). An API
// question goes through the same relay as an MCP elicitation (openQuestion: same card, form, answerers,
// timeouts, reminders, App Home); it is detached, so any replica answers for it from the record.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateLimit, RelayClock } from '../relay/relay.js';
import type { OpenContext, Recipients } from '../relay/sources/intake.js';
import type { EndReason, FinishResult, Outcome, Question } from '../relay/types.js';
import { answerAsSent } from '../mcp/index.js';
import type { StoredQuestion } from '../store/index.js';
import { mayTarget, type ApiClient } from './auth.js';
import type { EndedEvents } from './ended.js';
import { ApiError, fromRelayError } from './errors.js';
import { readJson, sendJson } from './http.js';
import { createOnce, type Idempotency } from './idempotency.js';
import { answerGet, ClientPoll } from './long-poll.js';
import { got } from './refusals.js';
import { DURATION_WORDS, QUESTION_CREATE } from './schemas.js';
import { validator } from './validate.js';
import { workspaceOf } from './workspace.js';

export interface QuestionCreate {
  message: string;
  requestedSchema: Record<string, unknown>;
  to: Recipients;
  /** The workspace of `to` (a Slack team id); see workspace.ts. */
  team?: string;
  timeout?: string | number;
  callbackUrl?: string;
  metadata?: Record<string, unknown>;
}

const validCreate = validator<QuestionCreate>(QUESTION_CREATE);

/** Question and call ids are 120-bit url-safe ids (a call's with `call_`); anything else cannot be one. */
export const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A minute per new question or call and client: `ratePerMinute` counts per 60 000 ms. */
const RATE_WINDOW_MS = 60_000;

/** The client's limit on new questions and calls (one budget for both), when it has one. */
export const rateLimitOf = (client: ApiClient): RateLimit | undefined =>
  client.ratePerMinute ? { max: client.ratePerMinute, perMs: RATE_WINDOW_MS } : undefined;

export interface QuestionsDeps extends ResourceDeps {
  open(request: { message: string; requestedSchema: unknown }, context: OpenContext): Promise<Question>;
  get(id: string): Promise<StoredQuestion | undefined>;
  end(id: string, outcome: Outcome, reason: EndReason): Promise<FinishResult>;
  /** The form engine's check (RelayError 'invalid_schema'), run before anything is written. */
  checkSchema(requestedSchema: unknown): void;
  /** Turns `timeout` into ms within the allowed bounds; undefined when it is not a valid duration. */
  timeoutMs(timeout: string | number | undefined): number | undefined;
  /**
   * The client that started API call `callId` (POST /calls), undefined once the call is gone. A call's
   * questions are asked by its MCP server, so they carry the call (`origin.callId`), not a client: without
   * this, no client reads or withdraws them.
   */
  callClient?(callId: string): Promise<string | undefined>;
}

/** What the questions and the calls routes both need. */
export interface ResourceDeps {
  /** Why a callbackUrl may not be used (its host is not allowed), or undefined when it may. */
  refuseCallback(url: string): string | undefined;
  /** Wakes long-polls when a question or call ends. */
  ended: Pick<EndedEvents, 'subscribe' | 'listen' | 'unlisten'>;
  idempotency: Idempotency;
  clock: RelayClock;
  /** The bot is installed in several Slack workspaces: each question and call names its `team`. */
  severalWorkspaces?: boolean;
}

/** The contract's GET shape. */
export function questionView(q: StoredQuestion): Record<string, unknown> {
  return {
    id: q.id,
    status: q.state,
    ...(q.outcome ? { result: resultOf(q, q.outcome) } : {}),
    ...(q.reason ? { reason: q.reason } : {}),
    ...(q.endedBy ? { answeredBy: q.endedBy } : {}),
    createdAt: new Date(q.createdAt).toISOString(),
    deadline: new Date(q.deadline).toISOString(),
    ...(q.endedAt === undefined ? {} : { endedAt: new Date(q.endedAt).toISOString() }),
  };
}

/**
 * What the MCP server received (PRODUCT: "exactly"), its schema's defaults included, as for an API question it
 * would have. When the record no longer holds an accepted answer's content (its holder had it: a call's question
 * ended on a replica of an earlier version, which dropped it), the answer cannot be shown: the result says so
 * rather than presenting the {} the record reads back as for the answer.
 */
function resultOf(q: StoredQuestion, outcome: Outcome): Record<string, unknown> {
  if (q.contentDropped === true && outcome.action === 'accept')
    return { action: 'accept', contentDropped: true };
  return answerAsSent(q, outcome);
}

export async function createQuestion(
  deps: QuestionsDeps,
  client: ApiClient,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = validCreate(await readJson(req));
  const context = openContext(deps, client, body);
  checkRequestedSchema(deps, body.requestedSchema);
  const ask = async (): Promise<Question> => {
    try {
      return await deps.open({ message: body.message, requestedSchema: body.requestedSchema }, context);
    } catch (error) {
      throw fromRelayError(error);
    }
  };
  const once = await createOnce(deps.idempotency, client.name, req, body, ask);
  if ('created' in once) return sendJson(res, 201, created(once.created));
  const question = await deps.get(once.replayOf);
  if (!question) throw new ApiError('not_found', `Question ${once.replayOf} has expired.`);
  sendJson(res, 200, questionView(question));
}

/** The form engine's check; its refusal names the field: "/requestedSchema: property "a": has no "type"". */
export function checkRequestedSchema(deps: Pick<QuestionsDeps, 'checkSchema'>, schema: unknown): void {
  try {
    deps.checkSchema(schema);
  } catch (error) {
    const refusal = fromRelayError(error);
    if (refusal.code !== 'invalid_schema') throw refusal;
    throw new ApiError('invalid_schema', `/requestedSchema: ${refusal.message}`, { cause: error });
  }
}

const created = (q: Question) => ({
  id: q.id,
  status: 'pending',
  deadline: new Date(q.deadline).toISOString(),
});

export function openContext(
  deps: Pick<QuestionsDeps, 'timeoutMs' | 'refuseCallback' | 'severalWorkspaces'>,
  client: ApiClient,
  body: QuestionCreate,
): OpenContext {
  const timeoutMs = deps.timeoutMs(body.timeout);
  if (timeoutMs === undefined) {
    throw new ApiError('invalid_request', `/timeout: must be ${DURATION_WORDS}${got(body.timeout)}`);
  }
  const refused = targetsOf(body.to).find((t) => !mayTarget(client, t));
  if (refused) throw new ApiError('forbidden', `This client may not ask ${refused}.`);
  const callbackRefusal = body.callbackUrl === undefined ? undefined : deps.refuseCallback(body.callbackUrl);
  if (callbackRefusal) throw new ApiError('invalid_request', `/callbackUrl: ${callbackRefusal}`);
  const rateLimit = rateLimitOf(client);
  return {
    client: client.name,
    to: body.to,
    ...workspaceOf(deps.severalWorkspaces ?? false, body.team, '/team'),
    timeoutMs,
    ...(rateLimit ? { rateLimit } : {}),
    ...(body.callbackUrl === undefined ? {} : { callbackUrl: body.callbackUrl }),
    ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
  };
}

function targetsOf(to: Recipients): string[] {
  if ('users' in to) return to.users;
  if ('user' in to) return [to.user];
  return 'usergroup' in to ? [to.usergroup] : [to.channel];
}

/** The client's own question, or 404 (unknown ids and other clients' alike). */
async function ownQuestion(deps: QuestionsDeps, client: ApiClient, id: string): Promise<Question> {
  const question = await readOwn(deps, client, id);
  if (!question) throw noQuestion(id);
  return question;
}

/** The client's own question; undefined for an unknown id or another client's. */
async function readOwn(deps: QuestionsDeps, client: ApiClient, id: string): Promise<Question | undefined> {
  const question = ID.test(id) ? await deps.get(id) : undefined;
  if (question === undefined) return undefined;
  return (await clientOf(deps, question)) === client.name ? question : undefined;
}

/** The client a question belongs to: the one that asked it, or the one whose call (POST /calls) asked it. */
async function clientOf(deps: QuestionsDeps, question: Question): Promise<string | undefined> {
  if (question.client !== undefined) return question.client;
  const { callId } = question.origin;
  return callId === undefined ? undefined : deps.callClient?.(callId);
}

const noQuestion = (id: string): ApiError => new ApiError('not_found', `No question ${id}.`);

export async function getQuestion(
  deps: QuestionsDeps,
  client: ApiClient,
  id: string,
  query: URLSearchParams,
  res: ServerResponse,
): Promise<void> {
  return answerGet(new QuestionPoll(deps, client, id), query, res);
}

/** The client's own question as a long-poll reads it. */
class QuestionPoll extends ClientPoll<Question, QuestionsDeps> {
  read(): Promise<Question | undefined> {
    return readOwn(this.deps, this.client, this.id);
  }

  pending(question: Question): boolean {
    return question.state === 'pending';
  }

  view(question: Question): Record<string, unknown> {
    return questionView(question);
  }

  notFound(): Error {
    return noQuestion(this.id);
  }
}

export async function withdrawQuestion(
  deps: QuestionsDeps,
  client: ApiClient,
  id: string,
  res: ServerResponse,
): Promise<void> {
  const question = await ownQuestion(deps, client, id);
  if (question.state === 'pending') {
    const result = await deps.end(id, { action: 'cancel' }, 'withdrawn');
    const now = result.question ?? (await deps.get(id));
    if (now) return sendJson(res, 200, questionView(now));
  }
  sendJson(res, 200, questionView(question));
}
