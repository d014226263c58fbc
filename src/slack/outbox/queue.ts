// The Slack outbox: card posts and updates go through a BullMQ queue so that every replica keeps to Slack's
// documented limits (blocks/slack-rate-limits.ts): each call reserves its slot in Redis when it is queued (posts
// per channel, chat.update per workspace) and is delayed until it; a `ratelimited` answer delays that call and
// that limit's later calls by its Retry-After, 5xx answers back off exponentially, and a call that cannot be
// made before its deadline gives up at once (the caller then ends the question).
//
// The worker never lets a job fail for a Slack reason: it completes with an OutboxResult, so send() gets
// `{ ok: false, error }` instead of BullMQ's failure text. Only transient errors are thrown, to be retried.
import { randomUUID } from 'node:crypto';
import type { KnownBlock } from '@slack/types';
import { DelayedError, Queue, QueueEvents, Worker, type Job, type JobType } from 'bullmq';
import { POST_PER_CHANNEL, methodLimit } from '../../../blocks/slack-rate-limits.js';
import {
  OUTBOX_QUEUE,
  RedisConnections,
  commandError,
  defaultLogger,
  endClient,
  keys,
  type Keys,
  type RedisClient,
  type RedisSetting,
  type StoreLogger,
} from '../../redis/index.js';
import { RelayError } from '../../relay/errors.js';
import { settleWithin } from '../../settle.js';
import { Waiters, isOutboxResult, type WaitFailure } from './waiters.js';

export { OUTBOX_QUEUE } from '../../redis/index.js';
/** A Redis failure as the outbox's StoreError. */
const rethrowAs =
  (what: string) =>
  (err: unknown): never => {
    throw commandError(what, err);
  };

/** Deadline of a call sent without one, in ms from its paced slot: bounds retries of card updates. */
export const OUTBOX_DEFAULT_DEADLINE_MS = 5 * 60_000;
/** First 5xx/network retry waits this long, doubling each time, in ms (BullMQ exponential backoff). */
export const OUTBOX_RETRY_BASE_MS = 1_000;
/** Runs of one call before a transient error is reported as final. */
export const OUTBOX_MAX_ATTEMPTS = 5;
/**
 * Spacing of chat.postMessage calls to one channel, in ms (Slack: one message per second per channel). Each
 * post reserves the channel's next free slot in Redis and is queued with the delay until it, across replicas.
 * No burst is planned: the burst Slack tolerates absorbs the lateness of a delayed job.
 */
export const OUTBOX_CHANNEL_PACE_MS = POST_PER_CHANNEL.intervalMs;
/** How long send() waits past the deadline for the worker's answer, in ms (covers a call in flight). */
const WAIT_GRACE_MS = 5_000;
/** Slack calls in progress at once per worker: calls are paced by their own limits, not by this. */
const CONCURRENCY = 16;
/**
 * Completed jobs are kept this long, in seconds, so a send() with the same key gets the same result. Only the
 * result is kept: the message itself is dropped as soon as the call is settled (see Data).
 */
const KEEP_COMPLETED_SEC = 600;

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
 * One limit (KEYS[1] holds its next free slot, epoch ms by Redis's clock), GCRA: reserves a slot ARGV[1] ms
 * after the last, letting a call go up to ARGV[2] ms early (the planned burst); returns the wait in ms. With
 * ARGV[3] > 0 (a Retry-After in ms) it reserves nothing and moves the next free slot past it instead.
 */
const PACE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local due = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local hold = tonumber(ARGV[3])
if hold > 0 then
  due = math.max(due, now + hold)
  redis.call('SET', KEYS[1], due, 'PX', due - now + interval)
  return 0
end
redis.call('SET', KEYS[1], due + interval, 'PX', due + interval - now)
return math.max(now, due - tonumber(ARGV[2])) - now`;

/** A limit the outbox paces by: its Redis key, spacing and planned burst (half what Slack tolerates). */
interface Pace {
  key: string;
  intervalMs: number;
  earlyMs: number;
  /**
   * How early a call may be made against the limit's calls as actually made (KEY:call, the same GCRA), in ms:
   * half-way between the planned burst and what Slack tolerates, so a call in flight may arrive that much later.
   */
  callEarlyMs: number;
}

/**
 * A job as stored. Its `args` (a card may show a person's answer) are replaced by the call's result once the
 * call is settled: README "Retention" keeps no answer content once relayed, while the job is kept
 * KEEP_COMPLETED_SEC for send()'s idempotency.
 */
type Data = Omit<OutboxJob, 'args'> & {
  deadline: number;
  /**
   * Sent without a deadline: the default one runs from the call's slot, so it moves on with the slot a wait
   * paces the call to (Retry-After, or a later call slot): a card's final update is not dropped while Slack
   * only asks us to wait. Real errors stay bounded by OUTBOX_MAX_ATTEMPTS.
   */
  fromSlot?: true;
  /** Epoch ms of the call slot this job was delayed to (see conform): its next run makes the call. */
  heldUntil?: number;
} & ({ args: OutboxArgs; settled?: undefined } | { args?: undefined; settled: OutboxResult });

/** The states of a job not yet done: the outbox's backlog. */
const BACKLOG_STATES: JobType[] = ['waiting', 'prioritized', 'delayed', 'active'];

/** Thrown inside the worker so BullMQ retries the job with backoff; never reaches send(). */
class RetryLater extends RelayError<'outbox_retry'> {
  override name = 'RetryLater';
}

interface Parts {
  opts: OutboxOptions;
  keys: Keys;
  logger: StoreLogger;
  producer: RedisClient;
  /** Unconnected template that BullMQ duplicates for its blocking connections. */
  base: RedisClient;
  queue: Queue<Data, OutboxResult>;
  events: QueueEvents;
  waiters: Waiters;
}

export class Outbox {
  private worker: Worker<Data, OutboxResult> | undefined;
  private readonly clock: () => number;
  private closed = false;

  private constructor(private readonly p: Parts) {
    this.clock = p.opts.clock ?? Date.now;
  }

  static async open(opts: OutboxOptions): Promise<Outbox> {
    const k = keys(opts.prefix);
    const logger = opts.logger ?? defaultLogger;
    const connections = new RedisConnections(opts, logger);
    const producer = await connections.command(k.connectionName('outbox', 'producer'));
    // No silence limit: QueueEvents and the worker block for up to BullMQ's own read timeouts.
    const base = connections.template(k.connectionName('outbox', 'blocking'));
    const queue = new Queue<Data, OutboxResult>(OUTBOX_QUEUE, { connection: producer, prefix: k.bullPrefix });
    const events = new QueueEvents(OUTBOX_QUEUE, { connection: base, prefix: k.bullPrefix });
    queue.on('error', (err) => logger.warn({ err }, 'outbox queue error'));
    events.on('error', (err) => logger.warn({ err }, 'outbox events error'));
    const waiters = new Waiters(events);
    const outbox = new Outbox({ opts, keys: k, logger, producer, base, queue, events, waiters });
    try {
      await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    } catch (err) {
      await outbox.close();
      throw commandError('outbox start-up', err);
    }
    return outbox;
  }

  /**
   * Queues one call and waits for its result; rejects with a StoreError only when Redis refuses the job.
   * `queued` runs once the job is in Redis, where any replica's worker makes the call if this one dies.
   */
  async send(job: OutboxJob, queued?: () => void): Promise<OutboxResult> {
    const pace = this.paceOf(job);
    const delay = pace ? await this.reserve(pace, 0).catch(rethrowAs('outbox send')) : 0;
    // The default deadline runs from the call's slot: the wait for Slack's budget (a flood's card updates wait
    // ≈ 10 min at Tier 3) is not a reason to give up on a card update.
    const deadline = job.deadline ?? this.clock() + delay + OUTBOX_DEFAULT_DEADLINE_MS;
    // The job id is ours, so the wait is registered before the job exists and no completion is missed.
    const id = job.key ?? randomUUID();
    const waiting = this.p.waiters.wait(id, Math.max(0, deadline - this.clock()) + WAIT_GRACE_MS);
    const data: Data = {
      ...job,
      deadline,
      ...(job.deadline === undefined ? { fromSlot: true as const } : {}),
    };
    try {
      await this.p.queue.add(job.method, data, { ...this.jobOptions(id), delay });
      // The same key sent earlier may have finished already: no event will come, so read its result.
      if (job.key !== undefined) await this.settleFinished(id);
      queued?.();
    } catch (err) {
      waiting.cancel();
      throw commandError('outbox send', err);
    }
    const { result, by } = await this.awaitResult(id, waiting.result, deadline, data.fromSlot === true);
    if (typeof result !== 'string') return result;
    // No answer in time (no worker running, Redis gone), BullMQ failed the job, or the outbox closed.
    this.p.logger.warn({ id, why: result }, 'outbox call did not finish');
    return { ok: false, error: this.clock() >= by ? 'deadline' : 'outbox_failed' };
  }

  /** Waits for job `id`, again while its deadline moved on (Data.fromSlot) and it is still to run by it. */
  private async awaitResult(
    id: string,
    first: Promise<OutboxResult | WaitFailure>,
    deadline: number,
    movable: boolean,
  ): Promise<{ result: OutboxResult | WaitFailure; by: number }> {
    let result = await first;
    let by = deadline;
    while (result === 'timed_out' && movable) {
      const moved = (await this.p.queue.getJob(id).catch(() => undefined))?.data.deadline;
      if (moved === undefined || moved <= by) break;
      by = moved;
      const again = this.p.waiters.wait(id, Math.max(0, by - this.clock()) + WAIT_GRACE_MS);
      await this.settleFinished(id).catch(() => undefined);
      result = await again.result;
    }
    return { result, by };
  }

  /**
   * Jobs not yet done across replicas, and when the oldest of them was queued (epoch ms): the first job of
   * each state (the delayed set is ordered by due time, so its first is the one due soonest).
   */
  async backlog(): Promise<{ depth: number; oldestAt?: number }> {
    const { queue } = this.p;
    const counts = await queue.getJobCounts(...BACKLOG_STATES);
    const depth = Object.values(counts).reduce((sum, n) => sum + n, 0);
    const firsts = await Promise.all(BACKLOG_STATES.map((state) => queue.getJobs(state, 0, 0, true)));
    const queuedAt = firsts.flat().map((job) => job.timestamp);
    return { depth, ...(queuedAt.length > 0 ? { oldestAt: Math.min(...queuedAt) } : {}) };
  }

  /** Runs this replica's worker; `classify` decides whether a handler error is retried. Once per outbox. */
  async start(handler: OutboxHandler, classify: (err: unknown) => Classified): Promise<void> {
    if (this.worker) return;
    const { base, logger } = this.p;
    const worker = new Worker<Data, OutboxResult>(
      OUTBOX_QUEUE,
      (job, token) => this.process(job, token, handler, classify),
      {
        connection: base,
        prefix: this.p.keys.bullPrefix,
        concurrency: CONCURRENCY,
      },
    );
    this.worker = worker;
    worker.on('error', (err) => logger.warn({ err }, 'outbox worker error'));
    await worker.waitUntilReady();
  }

  /** Stops the worker (letting running calls finish), then the queue, its events and every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const { queue, events, producer, base, logger, waiters } = this.p;
    const warn = (what: string) => (err: unknown) => logger.warn({ err }, `closing the outbox ${what}`);
    if (this.worker) {
      const worker = this.worker;
      const done = await settleWithin([worker.close()], WAIT_GRACE_MS);
      if (!done) await worker.close(true).catch(warn('worker'));
    }
    waiters.closeAll();
    await events.close().catch(warn('events'));
    await queue.close().catch(warn('queue'));
    await endClient(base, false);
    await endClient(producer, true);
  }

  /**
   * Reserves a slot of a tiered method's per-workspace limit (blocks/slack-rate-limits.ts) for a call made
   * outside the queue (views.publish of the Home tab), shared by every replica as the queue's own slots are;
   * returns the wait for it in ms, 0 for a method with no documented tier.
   */
  async slotFor(method: string, teamId?: string): Promise<number> {
    const pace = this.paceOf({ method, channel: '', ...(teamId ? { teamId } : {}) });
    return pace ? this.reserve(pace, 0).catch(rethrowAs('outbox slot')) : 0;
  }

  /** The limit a call is paced by: its channel for a post, its workspace's tier for a tiered method. */
  private paceOf(job: { method: string; channel: string; teamId?: string }): Pace | undefined {
    if (job.method === 'chat.postMessage') {
      const intervalMs = this.p.opts.channelPaceMs ?? OUTBOX_CHANNEL_PACE_MS;
      // Slack tolerates a burst of POST_PER_CHANNEL.burst; none is planned, half of its allowance absorbs lateness.
      const callEarlyMs = ((POST_PER_CHANNEL.burst - 1) * intervalMs) / 2;
      return intervalMs > 0
        ? { key: this.p.keys.pace(job.channel), intervalMs, earlyMs: 0, callEarlyMs }
        : undefined;
    }
    const limit = methodLimit(job.method);
    if (!limit) return undefined;
    const earlyMs = (Math.max(1, Math.floor(limit.burst / 2)) - 1) * limit.intervalMs;
    const key = this.p.keys.pace(`${job.method}@${job.teamId ?? '-'}`);
    const callEarlyMs = (earlyMs + (limit.burst - 1) * limit.intervalMs) / 2;
    return { key, intervalMs: limit.intervalMs, earlyMs, callEarlyMs };
  }

  /** Reserves a slot of `pace` and returns the wait for it in ms; or, with `holdMs`, holds the limit that long. */
  private async reserve(pace: Pace, holdMs: number): Promise<number> {
    const wait = await this.p.producer.eval(PACE_SCRIPT, 1, pace.key, pace.intervalMs, pace.earlyMs, holdMs);
    return typeof wait === 'number' ? wait : 0;
  }

  /** Settles the waits on job `id` when it has already finished. */
  private async settleFinished(id: string): Promise<void> {
    const state = await this.p.queue.getJobState(id);
    if (state !== 'completed' && state !== 'failed') return;
    const value: unknown = (await this.p.queue.getJob(id))?.returnvalue;
    this.p.waiters.settle(id, state === 'completed' && isOutboxResult(value) ? value : 'failed');
  }

  private jobOptions(jobId: string) {
    const retryBaseMs = this.p.opts.retryBaseMs ?? OUTBOX_RETRY_BASE_MS;
    return {
      jobId,
      attempts: OUTBOX_MAX_ATTEMPTS,
      backoff: { type: 'exponential', delay: retryBaseMs },
      removeOnComplete: { age: KEEP_COMPLETED_SEC },
      removeOnFail: { age: KEEP_COMPLETED_SEC },
    };
  }

  private async process(
    job: Job<Data, OutboxResult>,
    token: string | undefined,
    handler: OutboxHandler,
    classify: (err: unknown) => Classified,
  ): Promise<OutboxResult> {
    const data = job.data;
    // A run after the call was settled (its worker died before completing the job) gives the same result.
    if (data.settled) return data.settled;
    let result: OutboxResult;
    if (this.clock() >= data.deadline) result = { ok: false, error: 'deadline' };
    else {
      await this.conform(job, token);
      try {
        const { method, channel, args, teamId } = data;
        result = { ok: true, ...(await handler({ method, channel, args, ...(teamId ? { teamId } : {}) })) };
      } catch (err) {
        result = await this.onError(job, token, classify(err), err);
      }
    }
    await this.dropArgs(job, result);
    return result;
  }

  /**
   * A job runs late when the worker is busy or was down, and a late call followed by one on time can go past
   * Slack's burst allowance even though their slots were one interval apart (a late call moves Slack's
   * theoretical arrival time on from when it came). So each call also takes a slot of the limit's calls as
   * made; when that slot is later than now, the job is delayed to it (holding it: its next run calls) and
   * DelayedError thrown. A slot past the deadline is kept too: the next run then gives up at, never before, it.
   */
  private async conform(job: Job<Data, OutboxResult>, token: string | undefined): Promise<void> {
    const pace = this.paceOf(job.data);
    const held = job.data.heldUntil;
    if (!pace || (held !== undefined && Date.now() < held + pace.intervalMs)) return;
    const calls = { ...pace, key: `${pace.key}:call`, earlyMs: pace.callEarlyMs };
    const waitMs = await this.reserve(calls, 0);
    if (waitMs <= 0) return;
    // BullMQ's delayed set is ordered by Date.now() timestamps, so this one is not the injected clock.
    const heldUntil = Date.now() + waitMs;
    await job.updateData({ ...job.data, heldUntil, deadline: this.movedDeadline(job.data, waitMs) });
    await job.moveToDelayed(heldUntil, token);
    throw new DelayedError();
  }

  /** Keeps the settled call's result instead of its message; a failure only means the message stays longer. */
  private async dropArgs(job: Job<Data, OutboxResult>, result: OutboxResult): Promise<void> {
    const { method, channel, deadline } = job.data;
    await job.updateData({ method, channel, deadline, settled: result }).catch((err: unknown) => {
      this.p.logger.warn({ err, id: job.id }, 'outbox: could not drop a sent message from its job');
    });
  }

  /**
   * A 429: later calls under the same limit queue behind the Retry-After; this one runs again once it passed,
   * taking a fresh slot after them so it does not collide with a call already queued for that slot. A call
   * sent without a deadline has its deadline moved on with that slot (Data.fromSlot); one with a deadline
   * gives up when the slot is past it.
   */
  private async afterRetryAfter(
    job: Job<Data, OutboxResult>,
    token: string | undefined,
    retryAfterMs: number,
  ): Promise<OutboxResult> {
    if (!job.data.fromSlot && this.clock() + retryAfterMs >= job.data.deadline) {
      return { ok: false, error: 'deadline' };
    }
    const pace = this.paceOf(job.data);
    if (pace) await this.reserve(pace, retryAfterMs);
    const waitMs = pace ? Math.max(retryAfterMs, await this.reserve(pace, 0)) : retryAfterMs;
    if (job.data.fromSlot)
      await job.updateData({ ...job.data, deadline: this.movedDeadline(job.data, waitMs) });
    // BullMQ's delayed set is ordered by Date.now() timestamps, so this one is not the injected clock.
    await job.moveToDelayed(Date.now() + waitMs, token);
    throw new DelayedError();
  }

  /** The deadline of a call paced `waitMs` on: moved to that slot + the default for a call sent without one. */
  private movedDeadline(data: Data, waitMs: number): number {
    if (!data.fromSlot) return data.deadline;
    return Math.max(data.deadline, this.clock() + waitMs + OUTBOX_DEFAULT_DEADLINE_MS);
  }

  /** Gives up, or throws so BullMQ runs the job again: after Retry-After (this limit) or after backoff. */
  private async onError(
    job: Job<Data, OutboxResult>,
    token: string | undefined,
    c: Classified,
    cause: unknown,
  ): Promise<OutboxResult> {
    if (!c.retry) return { ok: false, error: c.error };
    const retryBaseMs = this.p.opts.retryBaseMs ?? OUTBOX_RETRY_BASE_MS;
    // BullMQ's exponential backoff waits base * 2^(runs so far - 1); attemptsMade counts the earlier runs.
    const waitMs = c.retryAfterMs ?? retryBaseMs * 2 ** job.attemptsMade;
    if (c.retryAfterMs !== undefined) return this.afterRetryAfter(job, token, c.retryAfterMs);
    if (this.clock() + waitMs >= job.data.deadline) return { ok: false, error: 'deadline' };
    if (job.attemptsMade + 1 >= OUTBOX_MAX_ATTEMPTS) return { ok: false, error: c.error };
    throw new RetryLater('outbox_retry', `Slack call failed (${c.error}); retrying`, { cause });
  }
}
