// The API's errors: a code from ApiErrorCode, the HTTP status it answers with and what it means, sent as
// {"error":{"code","message"}} (PRODUCT's Automations contract). This table is the one source of the error
// statuses: the OpenAPI document declares each operation's from OPERATION_ERRORS, so the two cannot drift.
// Never branch on message text.
import { RelayError } from '../relay/errors.js';
import { StoreError, type StoreErrorCode } from '../redis/index.js';
import { RateLimitedError } from '../store/index.js';

/** A response header some errors carry, as the OpenAPI document names it. */
export type ErrorHeader = 'Allow' | 'Retry-After' | 'WWW-Authenticate';

interface ErrorSpec {
  status: number;
  /** What the code means, as the OpenAPI document says it. */
  description: string;
  headers?: readonly ErrorHeader[];
}

const SPECS = {
  unauthorized: {
    status: 401,
    description: 'No bearer token, or one no client has.',
    headers: ['WWW-Authenticate'],
  },
  forbidden: { status: 403, description: 'The client may not use this server or target.' },
  not_found: {
    status: 404,
    description:
      "No such question or call of this client (another client's, or one that expired); on a create with an Idempotency-Key, the one that key created has expired.",
  },
  method_not_allowed: {
    status: 405,
    description: 'The path does not take this method; `Allow` lists the ones it takes.',
    headers: ['Allow'],
  },
  idempotency_conflict: { status: 409, description: 'The Idempotency-Key was used with another body.' },
  payload_too_large: { status: 413, description: 'The body is over 1 MB.' },
  unsupported_media_type: { status: 415, description: 'The body is not application/json.' },
  invalid_json: { status: 400, description: 'The body is not JSON.' },
  invalid_request: {
    status: 400,
    description:
      'A field or parameter is missing, unknown or ill-typed; the message names its path (/to/user).',
  },
  invalid_schema: {
    status: 400,
    description: 'The form engine cannot show requestedSchema (the same check MCP elicitations get).',
  },
  no_answerers: {
    status: 400,
    description:
      'The named user group has no members, or Slack knows no such group (the message names /to/usergroup).',
  },
  not_connected: {
    status: 409,
    description:
      'The person (`as.user`) has not signed in to this server: they run /mcp connect <server> in Slack first.',
  },
  rate_limited: {
    status: 429,
    description: "More new questions and calls a minute than the client's ratePerMinute; see Retry-After.",
    headers: ['Retry-After'],
  },
  missing_scope: {
    status: 403,
    description:
      "The bot's Slack installation lacks a scope this request needs (the message names it, e.g. usergroups:read to list a user group): asked again, it gets the same answer until the app is reinstalled with it.",
  },
  answerers_unavailable: { status: 502, description: "Slack could not list the user group's members." },
  unavailable: {
    status: 503,
    description: 'The bot cannot reach its Redis, or this replica is shutting down; retry after Retry-After.',
    headers: ['Retry-After'],
  },
  internal: { status: 500, description: 'A fault of the bot (logged).' },
} as const satisfies Record<string, ErrorSpec>;

export type ApiErrorCode = keyof typeof SPECS;

/** Every code the API answers with: its status, its meaning and the headers it comes with. */
export const API_ERRORS: Readonly<Record<ApiErrorCode, ErrorSpec>> = SPECS;

/** What every authenticated operation may answer: a bad token, a store that cannot answer now, a bug. */
const ANY: readonly ApiErrorCode[] = ['unauthorized', 'unavailable', 'internal'];
/** What reading a JSON body may answer (http.ts readJson and the schema's validator). */
const BODY: readonly ApiErrorCode[] = [
  'invalid_json',
  'invalid_request',
  'payload_too_large',
  'unsupported_media_type',
];
/** What a create on a client's behalf may answer: a target or server it may not use, its rate limit. */
const ASKING: readonly ApiErrorCode[] = ['forbidden', 'rate_limited'];
/** What a create under an Idempotency-Key may answer: another body, or what the key created has expired. */
const ONCE: readonly ApiErrorCode[] = ['idempotency_conflict', 'not_found'];

/** The error codes each operation (by its OpenAPI operationId) may answer with. */
export const OPERATION_ERRORS = {
  createQuestion: [
    ...ANY,
    ...BODY,
    ...ASKING,
    ...ONCE,
    'invalid_schema',
    'no_answerers',
    'missing_scope',
    'answerers_unavailable',
  ],
  getQuestion: [...ANY, 'invalid_request', 'not_found'],
  withdrawQuestion: [...ANY, 'not_found'],
  createCall: [...ANY, ...BODY, ...ASKING, ...ONCE, 'not_connected'],
  getCall: [...ANY, 'invalid_request', 'not_found'],
  listAudit: [...ANY, 'invalid_request'],
  openApi: [],
} as const satisfies Record<string, readonly ApiErrorCode[]>;

export type OperationId = keyof typeof OPERATION_ERRORS;

/**
 * Seconds a client waits before retrying a 503: a replica tries its Redis again at most 2 s apart
 * (src/redis/connection.ts), and a replica shutting down is out of its load balancer's rotation by then.
 */
export const UNAVAILABLE_RETRY_AFTER_SEC = 2;

export class ApiError extends RelayError<ApiErrorCode> {
  override name = 'ApiError';
  /** Seconds to wait before retrying (429, 503), sent as Retry-After. */
  retryAfterSec?: number;
  /** The methods the path takes (405), sent as Allow. */
  allow?: readonly string[];

  get status(): number {
    return API_ERRORS[this.code].status;
  }
}

/**
 * The store's failures that say "not now" rather than "never": Redis unreachable, Redis answering an error
 * (out of memory; a failover's read-only replica, a Cluster down or resharding), this replica draining (another
 * one takes the retry).
 */
const UNAVAILABLE_CODES: readonly StoreErrorCode[] = [
  'redis_unavailable',
  'redis_error',
  'redis_out_of_memory',
  'redis_try_again',
  'draining',
];

/** 503 `unavailable` for a store failure a retry can get past, by its code; undefined for anything else. */
export function unavailableFrom(error: unknown): ApiError | undefined {
  if (!(error instanceof StoreError) || !UNAVAILABLE_CODES.includes(error.code)) return undefined;
  const message = 'The bot cannot store or read this right now; retry shortly.';
  const unavailable = new ApiError('unavailable', message, { cause: error });
  unavailable.retryAfterSec = UNAVAILABLE_RETRY_AFTER_SEC;
  return unavailable;
}

/** The relay's refusals an API caller is told as they are, under the same code. */
const ANSWERED_RELAY_CODES = [
  'invalid_schema',
  'no_answerers',
  'missing_scope',
  'answerers_unavailable',
] as const satisfies readonly ApiErrorCode[];

const answeredAsIs = (code: unknown): code is (typeof ANSWERED_RELAY_CODES)[number] =>
  ANSWERED_RELAY_CODES.some((answered) => answered === code);

/** The relay's refusals an API caller can act on, as API errors; anything else is rethrown. */
export function fromRelayError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof RateLimitedError) {
    const limited = new ApiError('rate_limited', `More than ${error.max} questions a minute; retry later.`);
    limited.retryAfterSec = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return limited;
  }
  const unavailable = unavailableFrom(error);
  if (unavailable) return unavailable;
  if (error instanceof RelayError) {
    const code: unknown = error.code;
    if (answeredAsIs(code)) return new ApiError(code, error.message, { cause: error });
  }
  throw error;
}
