// The store's BullMQ workers (timeouts, reminders): one blocking connection they share, the lock and stall
// settings, tracking of running handlers, and a shutdown that can be graceful or forced.
import { Worker, type Job } from 'bullmq';
import {
  closeQueueOwners,
  endClient,
  type Keys,
  type RedisClient,
  type RedisConnections,
  type StoreLogger,
} from '../redis/index.js';
import { settleWithin } from '../settle.js';

/** Lock on an active timer job, in ms; a crashed worker's job is stalled once this lapses. */
export const TIMEOUT_LOCK_DURATION_MS = 10_000;
/** How often workers look for stalled timer jobs, in ms. */
export const TIMEOUT_STALLED_INTERVAL_MS = 5_000;
/** Upper bound, in ms, for a timer job held by a crashed worker to run again on a live one. */
export const TIMEOUT_RECOVERY_BOUND_MS = TIMEOUT_LOCK_DURATION_MS + TIMEOUT_STALLED_INTERVAL_MS;
/**
 * Longest a worker blocks waiting for jobs, in ms (BullMQ's cap for Redis; 5 s drainDelay when nothing is
 * delayed). A worker that is paused, not dead (SIGSTOP, a long GC), keeps its blocking read registered in
 * Redis and swallows the wake-up of a job moved back to wait, so a live worker fetches that job only when its
 * own block times out: the recovery bound for a paused worker is TIMEOUT_RECOVERY_BOUND_MS + this.
 */
export const TIMER_MAX_BLOCK_MS = 10_000;
/** Silence beyond a blocked read's longest wait, in ms, after which a worker's socket counts as dead. */
const WORKER_SILENCE_MARGIN_MS = 5_000;
/** Stalls tolerated before BullMQ fails the job (its default 1 would drop a timeout after two crashes). */
const MAX_STALLED_COUNT = 5;
/** Jobs run concurrently per worker; each handler is one short Redis script. */
const CONCURRENCY = 20;
/** How long a shutdown lets running handlers (and a graceful BullMQ close) finish, in ms. */
export const CLOSE_GRACE_MS = 5_000;

export type JobData = { id?: string; at?: number };

export interface TimerSettings {
  /** Lock on an active timer job, ms. Default TIMEOUT_LOCK_DURATION_MS (10000). */
  lockDurationMs?: number;
  /** Interval between stalled-job checks, ms. Default TIMEOUT_STALLED_INTERVAL_MS (5000). */
  stalledIntervalMs?: number;
  /** Interval between looks for deadline slots that lost their job, ms (store/slot-rescue.ts). Default 30000. */
  rescueEveryMs?: number;
  /** Overdue beyond which a deadline slot counts as having lost its job, ms. Default 60000. */
  rescueAfterMs?: number;
}

export class Timers {
  private base: RedisClient | undefined;
  private readonly workers: Worker[] = [];
  /** Handlers in progress, so a shutdown can let them finish without waiting on a Redis that may be gone. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly connections: RedisConnections,
    private readonly keys: Keys,
    private readonly holderId: string,
    private readonly logger: StoreLogger,
    private readonly settings: TimerSettings = {},
  ) {}

  async start(queue: string, handle: (job: Job<JobData>, token?: string) => Promise<void>): Promise<void> {
    const { keys: k, holderId, logger } = this;
    const worker = new Worker(queue, (job: Job<JobData>, token?: string) => this.track(handle(job, token)), {
      connection: this.connection(),
      prefix: k.bullPrefix,
      name: k.connectionName(queue, holderId),
      concurrency: CONCURRENCY,
      lockDuration: this.settings.lockDurationMs ?? TIMEOUT_LOCK_DURATION_MS,
      stalledInterval: this.settings.stalledIntervalMs ?? TIMEOUT_STALLED_INTERVAL_MS,
      maxStalledCount: MAX_STALLED_COUNT,
    });
    this.workers.push(worker);
    worker.on('error', (err) => logger.warn({ err, queue }, 'timer worker error'));
    worker.on('failed', (job, err) => logger.warn({ err, queue, id: job?.id }, 'timer job failed'));
    await worker.waitUntilReady();
  }

  /**
   * Lets running handlers finish, then closes the workers. `graceful` waits for BullMQ to complete its jobs and
   * release their locks (within CLOSE_GRACE_MS), leaving nothing active or stalled. Otherwise, while Redis is
   * down, and when the grace runs out, the workers' connections are dropped first (closeQueueOwners): a graceful
   * close queues QUIT behind a blocking read and hangs while Redis is down. A job cut short is recovered after
   * its lock lapses; its finish loses if it had already won.
   */
  async close(graceful: boolean): Promise<void> {
    const workers = this.workers.splice(0);
    if (workers.length === 0) return;
    await settleWithin([...this.running], CLOSE_GRACE_MS);
    const named = Object.fromEntries(workers.map((worker) => [`${worker.name} timer worker`, worker]));
    await closeQueueOwners(named, graceful ? CLOSE_GRACE_MS : 0, this.logger);
    if (this.base) await endClient(this.base, false);
    this.base = undefined;
  }

  /** Workers block (BZPOPMIN) and must wait out outages, hence their own connections and no retry limit. */
  private connection(): RedisClient {
    if (this.base) return this.base;
    // A blocked read answers within TIMER_MAX_BLOCK_MS; silence well past that means the socket died without a
    // FIN (partition), so it is dropped and reconnected. Below that, idle workers would churn connections.
    this.base = this.connections.template(
      this.keys.connectionName('worker', this.holderId),
      TIMER_MAX_BLOCK_MS + WORKER_SILENCE_MARGIN_MS,
    );
    return this.base;
  }

  private async track(run: Promise<void>): Promise<void> {
    this.running.add(run);
    try {
      await run;
    } finally {
      this.running.delete(run);
    }
  }
}
