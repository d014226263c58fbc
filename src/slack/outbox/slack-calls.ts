// The Slack end of the outbox: which WebClient errors are worth retrying, and the handler that makes the call.
// The WebClient must be built with `rejectRateLimitedCalls: true` and `retryConfig: { retries: 0 }`: otherwise
// it sleeps out a 429 itself (holding the worker) and the outbox never sees the Retry-After.
import { webApi } from '@slack/bolt';
import type { Classified, OutboxHandler, OutboxJob } from './queue.js';
import { RelayError } from '../../relay/errors.js';
import type { SlackClients } from '../workspaces.js';

/** Slack platform errors (HTTP 200, `ok: false`) that describe a passing fault on Slack's side. */
const TRANSIENT_PLATFORM_ERRORS = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

function field(err: unknown, name: string): unknown {
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>)[name] : undefined;
}

/** Slack's error code (`channel_not_found`, `invalid_auth`, ...) of a Web API error, when it has one. */
export function slackErrorCode(err: unknown): string | undefined {
  const error = field(field(err, 'data'), 'error');
  return typeof error === 'string' ? error : undefined;
}

function platformError(err: unknown): string {
  return slackErrorCode(err) ?? 'unknown_platform_error';
}

/**
 * Sorts a WebClient error: `ratelimited` (429) waits Retry-After, 5xx and network failures back off, any
 * other platform error (invalid_blocks, channel_not_found, ...) fails at once with Slack's code.
 */
export function classifySlackError(err: unknown): Classified {
  const { ErrorCode } = webApi;
  switch (field(err, 'code')) {
    case ErrorCode.RateLimitedError: {
      const sec = field(err, 'retryAfter');
      return { retry: true, retryAfterMs: typeof sec === 'number' ? sec * 1000 : 1000, error: 'ratelimited' };
    }
    case ErrorCode.HTTPError: {
      const status = field(err, 'statusCode');
      const code = typeof status === 'number' ? status : 0;
      return { retry: code >= 500, error: `http_${code}` };
    }
    case ErrorCode.RequestError:
      return { retry: true, error: 'request_error' };
    case ErrorCode.PlatformError: {
      const error = platformError(err);
      return { retry: TRANSIENT_PLATFORM_ERRORS.has(error), error };
    }
    default:
      return { retry: false, error: 'unexpected_error' };
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

/** Makes the job's call; `args` are the method's arguments apart from `channel`. */
export function slackHandler(clients: SlackClients): OutboxHandler {
  return async (job: OutboxJob) => {
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
