// The outbox's vocabulary: a Slack call as callers send it, its result, how an error is sorted, the job as
// stored in Redis, and the outbox's settings and bounds.
import type { KnownBlock } from '@slack/types';
import { POST_PER_CHANNEL } from '../../../blocks/slack-rate-limits.js';
import type { RedisSetting, StoreLogger } from '../../redis/index.js';

/** Deadline of a call sent without one, in ms from its paced slot: bounds retries of card updates. */
export const OUTBOX_DEFAULT_DEADLINE_MS = 5 * 60_000;
/** First 5xx/network retry waits this long, doubling each time, in ms (BullMQ exponential backoff). */
export const OUTBOX_RETRY_BASE_MS = 1_000;
/** Runs of one call before a transient error is reported as final. */
export const OUTBOX_MAX_ATTEMPTS = 5;
/**
 * Spacing of chat.postMessage calls to one channel, in ms (Slack: one message per second per channel). Each
 * post reserves the channel's next free slot in Redis and is queued with the delay until it, across replicas.
 * Three quarters of the burst Slack tolerates are planned; the last quarter covers a call's way to Slack (pacing.ts).
 */
export const OUTBOX_CHANNEL_PACE_MS = POST_PER_CHANNEL.intervalMs;

export type OutboxMethod = 'chat.postMessage' | 'chat.update';

/** A message call's arguments apart from `channel`; `ts` names the message chat.update edits. */
export interface OutboxArgs {
  text: string;
  blocks?: KnownBlock[];
  ts?: string;
  thread_ts?: string;
  unfurl_links?: boolean;
  unfurl_media?: boolean;
}

export interface OutboxJob {
  method: OutboxMethod;
  channel: string;
  args: OutboxArgs;
  /** Epoch ms after which the call is not worth making; default OUTBOX_DEFAULT_DEADLINE_MS from send(). */
  deadline?: number;
  /** Workspace (Slack team id) whose bot token makes the call; absent for a single-workspace deployment. */
  teamId?: string;
  /** Job id: a second send() with the same key while the first is kept waits for the same call. */
  key?: string;
  /**
   * A question id: the call is worth making only while that question is pending (a reminder, which a 429's
   * wait or the channel's pace may hold past the question's end); skipped, as done, once it is not.
   */
  whilePending?: string;
}

export type OutboxResult = { ok: true; ts?: string; channel?: string } | { ok: false; error: string };

/** How to treat a failed call: retry (after retryAfterMs when the API said so) or give up with `error`. */
export interface Classified {
  retry: boolean;
  retryAfterMs?: number;
  error: string;
}

export type OutboxHandler = (job: OutboxJob) => Promise<{ ts?: string; channel?: string }>;

/** Where Redis is (RedisSetting) and the outbox's own settings. */
export type OutboxOptions = RedisSetting & {
  /** REDIS_PREFIX; the queue lives under `${prefix}:{bull}:outbox`. */
  prefix: string;
  logger?: StoreLogger;
  /** Epoch ms; used for deadlines. Default Date.now. */
  clock?: () => number;
  /** Default OUTBOX_RETRY_BASE_MS. */
  retryBaseMs?: number;
  /** Default OUTBOX_CHANNEL_PACE_MS; 0 turns per-channel pacing off. */
  channelPaceMs?: number;
};

/**
 * A job as stored. Its `args` (a card may show a person's answer) are replaced by the call's result once the
 * call is settled: README "Retention" keeps no answer content once relayed, while the job is kept
 * a while (queue.ts KEEP_COMPLETED_SEC) for send()'s idempotency.
 */
export type Data = Omit<OutboxJob, 'args'> & {
  deadline: number;
  /**
   * Sent without a deadline: the default one runs from the call's slot, so it moves on with the slot a wait
   * paces the call to (Retry-After, or a later call slot): a card's final update is not dropped while Slack
   * only asks us to wait. Real errors stay bounded by OUTBOX_MAX_ATTEMPTS.
   */
  fromSlot?: true;
  /** Epoch ms of the call slot this job was delayed to (see conform): its next run makes the call. */
  heldUntil?: number;
  /**
   * Left queued by a stopping replica (Outbox.sendOrLeave): nobody waits for its result, so the worker that
   * settles it logs a failure (runs.ts), there being no caller to report it.
   */
  left?: true;
} & ({ args: OutboxArgs; settled?: undefined } | { args?: undefined; settled: OutboxResult });
