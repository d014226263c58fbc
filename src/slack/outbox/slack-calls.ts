// The Slack end of the outbox: which WebClient errors are worth retrying, and the handler that makes the call.
// The WebClient must be built with `rejectRateLimitedCalls: true` and `retryConfig: { retries: 0 }`: otherwise
// it sleeps out a 429 itself (holding the worker) and the outbox never sees the Retry-After.
import { webApi } from '@slack/bolt';
import type { Classified, OutboxHandler, OutboxJob } from './types.js';
import { RelayError } from '../../relay/errors.js';
import type { SlackClients } from '../workspaces.js';

/** Slack platform errors (HTTP 200, `ok: false`) that describe a passing fault on Slack's side. */
const TRANSIENT_PLATFORM_ERRORS = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/**
 * Slack's refusals of a post or update for the conversation itself, which no retry gets past (docs.slack.dev
 * chat.postMessage, chat.update): archived (`is_archived` for a post, `is_inactive` for an update), deleted or
 * never visible to the bot (`channel_not_found`), or a public channel the bot is not in (`not_in_channel`).
 */
const CONVERSATION_GONE_ERRORS: ReadonlySet<string> = new Set([
  'is_archived',
  'is_inactive',
  'channel_not_found',
  'not_in_channel',
]);

/** Whether an outbox call's error (Slack's code) says its conversation takes no more posts or updates. */
export function conversationGone(error: string): boolean {
  return CONVERSATION_GONE_ERRORS.has(error);
}

/** The Web API call errors, by their `code`: the WebClient's own discriminant. */
const CALL_ERROR_CODES: ReadonlySet<unknown> = new Set<webApi.ErrorCode>([
  webApi.ErrorCode.RateLimitedError,
  webApi.ErrorCode.HTTPError,
  webApi.ErrorCode.RequestError,
  webApi.ErrorCode.PlatformError,
]);

/** A failure of a Web API call as the WebClient throws it, narrowed by its `code`. */
export function isWebApiCallError(err: unknown): err is webApi.WebAPICallError {
  return typeof err === 'object' && err !== null && 'code' in err && CALL_ERROR_CODES.has(err.code);
}

/** Slack's error code (`channel_not_found`, `invalid_auth`, ...) of a Web API error, when it has one. */
export function slackErrorCode(err: unknown): string | undefined {
  return isWebApiCallError(err) && err.code === webApi.ErrorCode.PlatformError ? err.data.error : undefined;
}

/**
 * Sorts a WebClient error: `ratelimited` (429) waits Retry-After, 5xx and network failures back off, any
 * other platform error (invalid_blocks, channel_not_found, ...) fails at once with Slack's code.
 */
export function classifySlackError(err: unknown): Classified {
  if (!isWebApiCallError(err)) return { retry: false, error: 'unexpected_error' };
  switch (err.code) {
    case webApi.ErrorCode.RateLimitedError:
      return { retry: true, retryAfterMs: err.retryAfter * 1000, error: 'ratelimited' };
    case webApi.ErrorCode.HTTPError:
      return { retry: err.statusCode >= 500, error: `http_${err.statusCode}` };
    case webApi.ErrorCode.RequestError:
      return { retry: true, error: 'request_error' };
    case webApi.ErrorCode.PlatformError:
      return { retry: TRANSIENT_PLATFORM_ERRORS.has(err.data.error), error: err.data.error };
  }
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The ts of the message a chat.update edits: every caller names one. */
function required(ts: string | undefined): string {
  if (ts === undefined) throw new RelayError('slack_update_failed', 'chat.update job without a message ts');
  return ts;
}

/**
 * Makes the job's call; `args` are the method's arguments apart from `channel`. A job made only while its
 * question is pending (`whilePending`) is skipped once `isPending` says it is not.
 */
export function slackHandler(
  clients: SlackClients,
  isPending?: (questionId: string) => Promise<boolean>,
): OutboxHandler {
  return async (job: OutboxJob) => {
    if (job.whilePending !== undefined && isPending && !(await isPending(job.whilePending))) return {};
    const client = await clients.for(job.teamId);
    const { ts: edited, ...message } = job.args;
    const args = { ...message, channel: job.channel };
    const reply =
      job.method === 'chat.update'
        ? await client.chat.update({ ...args, ts: required(edited) })
        : await client.chat.postMessage(args);
    const ts = stringField(reply.ts);
    const channel = stringField(reply.channel);
    return { ...(ts ? { ts } : {}), ...(channel ? { channel } : {}) };
  };
}
