// The client's HTTP side: JSON requests with the bearer token, a request asked again after a failure while its
// patience lasts (patience.ts; a POST keeps its Idempotency-Key, so a retry creates nothing twice), and GET
// ?wait= long-polls asked again until the resource ends.
import { RelayError } from '../relay/errors.js';
import { pauseMs, retryAfterMs, type Patience } from './patience.js';

export type ClientErrorCode =
  /** The API refused the request (4xx): `status` and the API's own error code say why. */
  | 'refused'
  /** The bot could not be reached, or kept answering 5xx or 429, for as long as the request's patience lasts. */
  | 'unreachable'
  /** A 2xx answer that is not the API's JSON (a proxy's page, a body without a status): nothing to go on. */
  | 'bad_response';

export class ClientError extends RelayError<ClientErrorCode> {
  override name = 'ClientError';
  /** A refusal's `error.code` as the API sent it (src/api/errors.ts ApiErrorCode); absent when it sent none. */
  readonly apiCode?: string;
  constructor(
    code: ClientErrorCode,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown; apiCode?: string },
  ) {
    super(code, message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.apiCode !== undefined) this.apiCode = options.apiCode;
  }
}

/** Longest wait the API holds a GET for, in seconds (PRODUCT: at most 60). */
export const WAIT_SECONDS = 60;
/** A long-poll that has not answered this long after its wait is abandoned and asked again, in ms. */
const POLL_GRACE_MS = 30_000;

export interface Http {
  fetch: typeof fetch;
  /** Pauses between tries. */
  sleep: (ms: number) => Promise<void>;
  /** The wall clock in ms since the epoch: when to give up, and a Retry-After given as a date, read against it. */
  now: () => number;
}

export interface Endpoint {
  url: string;
  token: string;
}

/** Told when a request starts failing and when it is answered again, so the status line can say so. */
export interface OutageWatch {
  /** The request's first failure: the bot is asked again until `until` (ms since the epoch). */
  down(cause: unknown, until: number): void;
  /** The request was answered after failing. */
  back(): void;
}

export interface RequestOptions {
  method: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  patience: Patience;
  watch?: OutageWatch;
}

/** A try that did not get the API's answer: `notNow` when the bot answered 429 or a 503 with Retry-After. */
interface Failure {
  notNow: boolean;
  cause: unknown;
  retryAfterMs: number | undefined;
}

/**
 * Sends one request, asking again after a failure (network, 5xx, 429) while its patience lasts; resolves with
 * the JSON of a 2xx answer. A POST asked again carries the same headers, so its Idempotency-Key.
 */
export async function request(
  http: Http,
  endpoint: Endpoint,
  path: string,
  init: RequestOptions,
): Promise<Record<string, unknown>> {
  // Serialised once, outside the retry: a body that cannot be sent is no network failure.
  const json = init.body === undefined ? undefined : JSON.stringify(init.body);
  const { patience, watch } = init;
  let since: number | undefined;
  let unanswered = 0;
  for (let failures = 1; ; failures++) {
    const tried = await tryOnce(http, endpoint, path, { ...init, json });
    if ('body' in tried) {
      if (since !== undefined) watch?.back();
      return tried.body;
    }
    const { cause, notNow } = tried.failure;
    since ??= http.now();
    if (!notNow) unanswered++;
    const until = patience.giveUpAt(since);
    if (unanswered >= patience.unanswered) {
      throw new ClientError('unreachable', `no answer from ${endpoint.url}: ${String(cause)}`, undefined, {
        cause,
      });
    }
    if (http.now() >= until) {
      const why = `gave up on ${endpoint.url}: ${patience.gaveUp(since)}; last: ${String(cause)}`;
      throw new ClientError('unreachable', why, undefined, { cause });
    }
    if (failures === 1) watch?.down(cause, until);
    await http.sleep(pauseMs(patience, failures, tried.failure.retryAfterMs));
  }
}

type Tried = { body: Record<string, unknown> } | { failure: Failure };

/** One try: the answer's JSON, a failure worth asking again after, or a ClientError for a refusal. */
async function tryOnce(
  http: Http,
  endpoint: Endpoint,
  path: string,
  init: RequestOptions & { json: string | undefined },
): Promise<Tried> {
  let answer: Answer;
  try {
    answer = await exchange(http, endpoint, path, init);
  } catch (cause) {
    return { failure: { notNow: false, cause, retryAfterMs: undefined } };
  }
  const parsed = parseObject(answer.text);
  if (answer.status >= 200 && answer.status < 300) {
    if (parsed) return { body: parsed };
    throw new ClientError('bad_response', `${path} answered ${answer.status} without a JSON object`);
  }
  const body = parsed ?? {};
  const retryAfter = retryAfterMs(answer.retryAfter, http.now());
  // The bot's 503 always carries Retry-After; one without is a proxy's with no bot behind it: not answered.
  const notNow = answer.status === 429 || (answer.status === 503 && retryAfter !== undefined);
  if (answer.status < 500 && !notNow) throw refused(answer.status, body);
  const said = notNow ? errorText(answer.status, body) : String(answer.status);
  return { failure: { notNow, cause: new Error(`HTTP ${said}`), retryAfterMs: retryAfter } };
}

interface Answer {
  status: number;
  text: string;
  /** The Retry-After header as sent, or null. */
  retryAfter: string | null;
}

/**
 * One request and its whole body. The body is read here, inside the caller's retry: an answer that breaks off
 * mid-body (undici's TypeError "terminated" when a replica or proxy drops the connection, or the timeout firing
 * during the read) is a network failure like a refused connection, and a POST asked again keeps its
 * Idempotency-Key, so nothing is created twice.
 */
async function exchange(
  http: Http,
  endpoint: Endpoint,
  path: string,
  init: RequestOptions & { json: string | undefined },
): Promise<Answer> {
  const response = await http.fetch(`${endpoint.url}${path}`, {
    method: init.method,
    headers: {
      Authorization: `Bearer ${endpoint.token}`,
      Accept: 'application/json',
      ...(init.json === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    ...(init.json === undefined ? {} : { body: init.json }),
    ...(init.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(init.timeoutMs) }),
  });
  const retryAfter = response.headers.get('Retry-After');
  return { status: response.status, text: await response.text(), retryAfter };
}

export interface WaitOptions {
  /** Whether an answer still says the resource has not ended. */
  pending: (body: Record<string, unknown>) => boolean;
  /** How long to ride out a bot that stops answering meanwhile. */
  patience: Patience;
  watch?: OutageWatch;
}

/** GET `path?wait=60` again and again while `pending(body)`; resolves with the first body that is not. */
export async function waitUntilEnded(
  http: Http,
  endpoint: Endpoint,
  path: string,
  { pending, patience, watch }: WaitOptions,
): Promise<Record<string, unknown>> {
  for (;;) {
    const body = await request(http, endpoint, `${path}?wait=${WAIT_SECONDS}`, {
      method: 'GET',
      timeoutMs: WAIT_SECONDS * 1000 + POLL_GRACE_MS,
      patience,
      ...(watch === undefined ? {} : { watch }),
    });
    // Without a status there is no telling whether it ended: taking it as ended would report an outcome (and
    // its exit code) that nobody gave.
    if (typeof body.status !== 'string')
      throw new ClientError('bad_response', `${path} answered without a status`);
    if (!pending(body)) return body;
  }
}

/** The JSON object a body holds, or undefined for anything else (an HTML error page, an array, nothing). */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : undefined;
  } catch {
    return undefined;
  }
}

/** The API's `{"error":{"code","message"}}` as "<status> <code>: <message>". */
function errorText(status: number, body: Record<string, unknown>): string {
  const error = body.error;
  const message =
    typeof error === 'object' && error !== null && 'message' in error
      ? String(error.message)
      : `HTTP ${status}`;
  return `${status} ${errorCode(body) ?? 'error'}: ${message}`;
}

/** The API's error code in `{"error":{"code"}}`; undefined in any other body (a proxy's page). */
function errorCode(body: Record<string, unknown>): string | undefined {
  const error = body.error;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** The API's refusal as a ClientError carrying the API's error code. */
function refused(status: number, body: Record<string, unknown>): ClientError {
  const apiCode = errorCode(body);
  return new ClientError(
    'refused',
    errorText(status, body),
    status,
    apiCode === undefined ? {} : { apiCode },
  );
}
