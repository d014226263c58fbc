// The Slack outbox: queue.ts is the BullMQ queue shared by every replica (send, wait, backlog), pacing.ts keeps
// Slack's limits in Redis, runs.ts is one run of a call (deadline, retries, Retry-After), types.ts the calls and
// results; slack-calls.ts makes the Web API calls and sorts their errors.
export { OUTBOX_QUEUE, Outbox } from './queue.js';
export {
  OUTBOX_CHANNEL_PACE_MS,
  OUTBOX_DEFAULT_DEADLINE_MS,
  OUTBOX_MAX_ATTEMPTS,
  OUTBOX_RETRY_BASE_MS,
  type Classified,
  type OutboxArgs,
  type OutboxHandler,
  type OutboxJob,
  type OutboxMethod,
  type OutboxOptions,
  type OutboxResult,
} from './types.js';
export { classifySlackError, conversationGone, slackErrorCode, slackHandler } from './slack-calls.js';
