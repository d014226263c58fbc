// The client's HTTP side: JSON requests with the bearer token, a POST retried with its Idempotency-Key (so a
// retry creates nothing twice), and GET ?wait= long-polls asked again until the resource ends.
import { RelayError } from '../relay/errors.js';

export type ClientErrorCode =
  /** The API refused the request (4xx): `status` and the API's own error code say why. */
  | 'refused'
  /** The bot could not be reached, or kept answering 5xx, through every retry. */
  | 'unreachable'
  /** A 2xx answer that is not the API's JSON (a proxy's page, a body without a status): nothing to go on. */
  | 'bad_response';

export class ClientError extends RelayError<ClientErrorCode> {
  override name = 'ClientError';
  constructor(
    code: ClientErrorCode,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** Longest wait the API holds a GET for, in seconds (PRODUCT: at most 60). */
export const WAIT_SECONDS = 60;
/** A long-poll that has not answered this long after its wait is abandoned and asked again, in ms. */
const POLL_GRACE_MS = 30_000;
/**
 * Tries before giving up on a bot that does not answer or answers 5xx, and the first pause between them (ms,
 * doubling). Creating fails fast (0.5 + 1 + 2 s) so a wrong URL is reported at once; waiting on a resource
 * that exists rides out a replica's restart (1 + 2 + 4 + 8 + 16 s).
 */
export const RETRIES = { create: { tries: 4, baseMs: 500 }, wait: { tries: 6, baseMs: 1_000 } } as const;

export interface Http {
  fetch: typeof fetch;
  /** Pauses between tries. */
  sleep: (ms: number) => Promise<void>;
}

export interface Endpoint {
  url: string;
  token: string;
}

export interface RequestOptions {
  method: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** Sends one request, retrying network failures and 5xx; resolves with the JSON of a 2xx answer. */
export async function request(
  http: Http,
  endpoint: Endpoint,
  path: string,
  init: RequestOptions,
): Promise<Record<string, unknown>> {
  const retry = init.method === 'POST' ? RETRIES.create : RETRIES.wait;
  // Serialised once, outside the retry: a body that cannot be sent is no network failure.
  const json = init.body === undefined ? undefined : JSON.stringify(init.body);
  let last: unknown;
  for (let attempt = 0; attempt < retry.tries; attempt++) {
    if (attempt > 0) await http.sleep(retry.baseMs * 2 ** (attempt - 1));
    let answer: Answer;
    try {
      answer = await exchange(http, endpoint, path, { ...init, json });
    } catch (cause) {
      last = cause;
      continue;
    }
    const body = parseObject(answer.text);
    if (answer.status >= 200 && answer.status < 300) {
      if (body) return body;
      throw new ClientError('bad_response', `${path} answered ${answer.status} without a JSON object`);
    }
    if (answer.status < 500) throw refused(answer.status, body ?? {});
    last = new Error(`HTTP ${answer.status}`);
  }
  throw new ClientError('unreachable', `no answer from ${endpoint.url}: ${String(last)}`, undefined, {
    cause: last,
  });
}

interface Answer {
  status: number;
  text: string;
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
  return { status: response.status, text: await response.text() };
}

/** GET `path?wait=60` again and again while `pending(body)`; resolves with the first body that is not. */
export async function waitUntilEnded(
  http: Http,
  endpoint: Endpoint,
  path: string,
  pending: (body: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (;;) {
    const body = await request(http, endpoint, `${path}?wait=${WAIT_SECONDS}`, {
      method: 'GET',
      timeoutMs: WAIT_SECONDS * 1000 + POLL_GRACE_MS,
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

/** The API's `{"error":{"code","message"}}` as a ClientError. */
function refused(status: number, body: Record<string, unknown>): ClientError {
  const error = body.error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'error';
  const message =
    typeof error === 'object' && error !== null && 'message' in error
      ? String(error.message)
      : `HTTP ${status}`;
  return new ClientError('refused', `${status} ${code}: ${message}`, status);
}
