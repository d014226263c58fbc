// The API's errors: a code from ApiErrorCode and the HTTP status it answers with, sent as
// {"error":{"code","message"}} (PRODUCT's Automations contract). Never branch on message text.
import { RelayError } from '../relay/errors.js';
import { RateLimitedError } from '../store/index.js';

/** Every code the API answers with, and its status. */
const STATUS = {
  /** No bearer token, or one no client has. */
  unauthorized: 401,
  /** The client may not use this server or target. */
  forbidden: 403,
  /** No such route, or a question or call that is not this client's (or does not exist). */
  not_found: 404,
  method_not_allowed: 405,
  /** Idempotency-Key reused with another request. */
  idempotency_conflict: 409,
  /** The body is over 1 MB. */
  payload_too_large: 413,
  /** A body that is not application/json. */
  unsupported_media_type: 415,
  /** The body is not JSON. */
  invalid_json: 400,
  /** A field is missing, unknown or ill-typed; the message names its path (/to/user). */
  invalid_request: 400,
  /** The form engine cannot show requestedSchema (the same check MCP elicitations get). */
  invalid_schema: 400,
  /** The named user group has no members. */
  no_answerers: 400,
  /** The person (`as.user`) has not signed in to this server: they run `/mcp connect <server>` in Slack first. */
  not_connected: 409,
  /** The client asked more questions per minute than its ratePerMinute allows. */
  rate_limited: 429,
  /** Slack could not list the user group's members. */
  answerers_unavailable: 502,
  /** Redis did not answer. */
  unavailable: 503,
  /** A fault of the bot (logged). */
  internal: 500,
} as const;

export type ApiErrorCode = keyof typeof STATUS;

export class ApiError extends RelayError<ApiErrorCode> {
  override name = 'ApiError';
  /** Seconds to wait before retrying (429), sent as Retry-After. */
  retryAfterSec?: number;

  get status(): number {
    return STATUS[this.code];
  }
}

/** The relay's refusals an API caller can act on, as API errors; anything else is rethrown. */
export function fromRelayError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof RateLimitedError) {
    const limited = new ApiError('rate_limited', `More than ${error.max} questions a minute; retry later.`);
    limited.retryAfterSec = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    return limited;
  }
  if (error instanceof RelayError) {
    const code: unknown = error.code;
    if (code === 'invalid_schema' || code === 'no_answerers' || code === 'answerers_unavailable')
      return new ApiError(code, error.message, { cause: error });
    if (code === 'redis_unavailable' || code === 'redis_error' || code === 'draining')
      return new ApiError('unavailable', 'The bot cannot store questions right now; retry shortly.', {
        cause: error,
      });
  }
  throw error;
}
