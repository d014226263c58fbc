// The Slack outbox: card posts and updates go through a BullMQ queue so that every replica keeps to Slack's
// documented limits (blocks/slack-rate-limits.ts): each call reserves its slot in Redis when it is queued (posts
// per channel, chat.update per workspace) and is delayed until it; a `ratelimited` answer delays that call and
// that limit's later calls by its Retry-After, 5xx answers back off exponentially, and a call that cannot be
// made before its deadline gives up at once (the caller then ends the question).
//
// The worker never lets a job fail for a Slack reason: it completes with an OutboxResult, so send() gets
// `{ ok: false, error }` instead of BullMQ's failure text. Only transient errors are thrown, to be retried.
import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents, Worker, type JobType } from 'bullmq';
import {
  OUTBOX_QUEUE,
  RedisConnections,
  closeQueueOwners,
  commandError,
  defaultLogger,
  endClient,
  keys,
  markerWake,
  QueueWakes,
  type Keys,
  type RedisClient,
  type StoreLogger,
} from '../../redis/index.js';
import { systemClock } from '../../clock.js';
import { oldestQueuedAt } from './backlog.js';
import { Pacer } from './pacing.js';
import { OutboxRuns } from './runs.js';
import {
  OUTBOX_DEFAULT_DEADLINE_MS,
  OUTBOX_MAX_ATTEMPTS,
  OUTBOX_RETRY_BASE_MS,
  type Classified,
  type Data,
  type OutboxHandler,
  type OutboxJob,
  type OutboxOptions,
  type OutboxResult,
} from './types.js';
import { Waiters, isOutboxResult, type WaitFailure } from './waiters.js';

export { OUTBOX_QUEUE } from '../../redis/index.js';
/** A Redis failure as the outbox's StoreError. */
const rethrowAs =
  (what: string) =>
  (err: unknown): never => {
    throw commandError(what, err);
  };

/** How long send() waits past the deadline for the worker's answer, in ms (covers a call in flight). */
const WAIT_GRACE_MS = 5_000;
/** Slack calls in progress at once per worker: calls are paced by their own limits, not by this. */
const CONCURRENCY = 16;
/**
 * Completed jobs are kept this long, in seconds, so a send() with the same key gets the same result. Only the
 * result is kept: the message itself is dropped as soon as the call is settled (see Data).
 */
const KEEP_COMPLETED_SEC = 600;

/** The states of a job not yet done: the outbox's backlog. */
const BACKLOG_STATES: JobType[] = ['waiting', 'prioritized', 'delayed', 'active'];

/** A call with its slot reserved: its job id, its stored data and the wait for its slot, ms. */
interface Slotted {
  id: string;
  data: Data;
  delay: number;
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
  pacer: Pacer;
  runs: OutboxRuns;
  wakes: QueueWakes;
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
    const pacer = new Pacer(producer, k, opts.channelPaceMs);
    const clock = opts.clock ?? Date.now;
    const retryBaseMs = opts.retryBaseMs ?? OUTBOX_RETRY_BASE_MS;
    const wake = markerWake(queue, producer);
    const wakes = new QueueWakes({ wake, schedule: systemClock.schedule, logger, queue: OUTBOX_QUEUE });
    const runs = new OutboxRuns({ pacer, clock, logger, retryBaseMs, wakes });
    const parts = { opts, keys: k, logger, producer, base, queue, events, waiters, pacer, runs, wakes };
    const outbox = new Outbox(parts);
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
    return this.made(job, await this.slotted(job), queued);
  }

  /**
   * As send() for a call whose slot is now; a call paced to a later slot is only queued (resolves undefined
   * once it is in Redis): any replica's worker makes it then, its result kept as send()'s but reported to
   * nobody but the log (a failure is logged where it settles, OutboxRuns). A stopping replica leaves its paced
   * card updates so rather than wait their slots out.
   */
  async sendOrLeave(job: OutboxJob): Promise<OutboxResult | undefined> {
    const slotted = await this.slotted(job);
    if (slotted.delay === 0) return this.made(job, slotted);
    const { id, data, delay } = slotted;
    await this.p.queue
      .add(job.method, { ...data, left: true }, { ...this.jobOptions(id), delay })
      .catch(rethrowAs('outbox send'));
    this.p.wakes.at(Date.now() + delay);
    return undefined;
  }

  /** Queues the call in its slot and waits for its result (send()). */
  private async made(job: OutboxJob, slotted: Slotted, queued?: () => void): Promise<OutboxResult> {
    const { id, data, delay } = slotted;
    const { deadline } = data;
    // The job id is ours, so the wait is registered before the job exists and no completion is missed.
    const waiting = this.p.waiters.wait(id, Math.max(0, deadline - this.clock()) + WAIT_GRACE_MS);
    try {
      await this.p.queue.add(job.method, data, { ...this.jobOptions(id), delay });
      if (delay > 0) this.p.wakes.at(Date.now() + delay);
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

  /** The call's slot (its delay, ms), its job id and its stored data with the deadline. */
  private async slotted(job: OutboxJob): Promise<Slotted> {
    const pace = this.p.pacer.paceOf(job);
    const delay = pace ? await this.p.pacer.reserve(pace, 0).catch(rethrowAs('outbox send')) : 0;
    // The default deadline runs from the call's slot: the wait for Slack's budget (a flood's card updates wait
    // ≈ 10 min at Tier 3) is not a reason to give up on a card update.
    const deadline = job.deadline ?? this.clock() + delay + OUTBOX_DEFAULT_DEADLINE_MS;
    const data: Data = {
      ...job,
      deadline,
      ...(job.deadline === undefined ? { fromSlot: true as const } : {}),
    };
    return { id: job.key ?? randomUUID(), data, delay };
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

  /** Jobs not yet done across replicas, and when the oldest of them was queued (epoch ms; backlog.ts). */
  async backlog(): Promise<{ depth: number; oldestAt?: number }> {
    const { queue, producer } = this.p;
    const [counts, oldestAt] = await Promise.all([
      queue.getJobCounts(...BACKLOG_STATES),
      oldestQueuedAt(producer, queue),
    ]);
    const depth = Object.values(counts).reduce((sum, n) => sum + n, 0);
    return { depth, ...(oldestAt === undefined ? {} : { oldestAt }) };
  }

  /** Runs this replica's worker; `classify` decides whether a handler error is retried. Once per outbox. */
  async start(handler: OutboxHandler, classify: (err: unknown) => Classified): Promise<void> {
    if (this.worker) return;
    const { base, logger } = this.p;
    const worker = new Worker<Data, OutboxResult>(
      OUTBOX_QUEUE,
      (job, token) => this.p.runs.process(job, token, handler, classify),
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
    const { queue, events, producer, base, logger, waiters, wakes } = this.p;
    wakes.close();
    // While Redis is down, or once a grace ran out, each part's connections are dropped (closeQueueOwners).
    await closeQueueOwners({ 'outbox worker': this.worker }, WAIT_GRACE_MS, logger);
    waiters.closeAll();
    await closeQueueOwners({ 'outbox events': events, 'outbox queue': queue }, WAIT_GRACE_MS, logger);
    await endClient(base, false);
    await endClient(producer, true);
  }

  /**
   * Reserves a slot of a tiered method's per-workspace limit (blocks/slack-rate-limits.ts) for a call made
   * outside the queue (views.publish of the Home tab), shared by every replica as the queue's own slots are;
   * returns the wait for it in ms, 0 for a method with no documented tier.
   */
  async slotFor(method: string, teamId?: string): Promise<number> {
    const pace = this.p.pacer.paceOf({ method, channel: '', ...(teamId ? { teamId } : {}) });
    return pace ? this.p.pacer.reserve(pace, 0).catch(rethrowAs('outbox slot')) : 0;
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
}
