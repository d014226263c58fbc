// The store's BullMQ workers (timeouts, reminders): each on a connection of its own, the lock and stall settings,
// tracking of running handlers and of when each worker last took a job, a restart of one worker (timeout-watch.ts)
// and a shutdown that can be graceful or forced.
import { Worker, type Job } from 'bullmq';
import type { Clock } from '../clock.js';
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
  /** Interval between looks for a stuck timeout worker, ms (store/timeout-watch.ts). Default 15000. */
  watchEveryMs?: number;
  /**
   * How long a due slot job waits, untaken, while this replica's worker took nothing, before that worker counts
   * as stuck (with a question overdue beyond rescueAfterMs + this), ms. Default 30000.
   */
  stuckAfterMs?: number;
}

type Handle = (job: Job<JobData>, token?: string) => Promise<void>;

/** One queue's worker, its connection (BullMQ duplicates it for the blocking read) and its processor. */
interface Running {
  worker: Worker;
  base: RedisClient;
  handle: Handle;
  /**
   * When the worker last took a job, or was made (epoch ms, the store's clock), and how many of its jobs run now:
   * a worker busy with long jobs is not idle, however long ago it took the last one.
   */
  taken: { at: number; active: number };
}

export class Timers {
  private readonly workers = new Map<string, Running>();
  /** Restarts under way, so close() can let them end first. */
  private readonly restarts = new Set<Promise<void>>();
  /** Handlers in progress, so a shutdown can let them finish without waiting on a Redis that may be gone. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly connections: RedisConnections,
    private readonly keys: Keys,
    private readonly holderId: string,
    private readonly logger: StoreLogger,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly settings: TimerSettings = {},
  ) {}

  async start(queue: string, handle: Handle): Promise<void> {
    const running = this.open(queue, handle);
    this.workers.set(queue, running);
    await running.worker.waitUntilReady();
  }

  /** The queue's worker while it runs (the restarts replace it). */
  worker(queue: string): Worker | undefined {
    return this.workers.get(queue)?.worker;
  }

  /** How long ago the queue's worker last took a job, or was made, ms; undefined while none runs. */
  idleMs(queue: string): number | undefined {
    const running = this.workers.get(queue);
    if (running === undefined) return undefined;
    return running.taken.active > 0 ? 0 : this.clock.now() - running.taken.at;
  }

  /**
   * Replaces the queue's worker by a new one with the same processor, which connects and runs on its own. The
   * old one is closed as a forced stop does: its connections dropped at once, its close waited for a few seconds
   * at most (one that does not settle is logged and left). A job it held runs again once its lock lapses, and its
   * finish, a CAS, ends each question once.
   */
  async restart(queue: string): Promise<void> {
    const old = this.workers.get(queue);
    if (!old) return;
    const restart = this.replace(queue, old);
    this.restarts.add(restart);
    try {
      await restart;
    } finally {
      this.restarts.delete(restart);
    }
  }

  private async replace(queue: string, old: Running): Promise<void> {
    const running = this.open(queue, old.handle);
    this.workers.set(queue, running);
    await closeQueueOwners({ [`stuck ${old.worker.name} timer worker`]: old.worker }, 0, this.logger);
    await endClient(old.base, false);
  }

  /** A new worker of `queue` running `handle`, on a connection of its own (a restart drops only its own). */
  private open(queue: string, handle: Handle): Running {
    const { keys: k, holderId, logger } = this;
    const base = this.connection(queue);
    const taken = { at: this.clock.now(), active: 0 };
    const take = async (job: Job<JobData>, token?: string): Promise<void> => {
      taken.at = this.clock.now();
      taken.active += 1;
      try {
        await this.track(handle(job, token));
      } finally {
        taken.active -= 1;
        taken.at = this.clock.now();
      }
    };
    const worker = new Worker(queue, take, {
      connection: base,
      prefix: k.bullPrefix,
      name: k.connectionName(queue, holderId),
      concurrency: CONCURRENCY,
      lockDuration: this.settings.lockDurationMs ?? TIMEOUT_LOCK_DURATION_MS,
      stalledInterval: this.settings.stalledIntervalMs ?? TIMEOUT_STALLED_INTERVAL_MS,
      maxStalledCount: MAX_STALLED_COUNT,
    });
    worker.on('error', (err) => logger.warn({ err, queue }, 'timer worker error'));
    worker.on('failed', (job, err) => logger.warn({ err, queue, id: job?.id }, 'timer job failed'));
    return { worker, base, handle, taken };
  }

  /**
   * Lets running handlers finish, then closes the workers. `graceful` waits for BullMQ to complete its jobs and
   * release their locks (within CLOSE_GRACE_MS), leaving nothing active or stalled. Otherwise, while Redis is
   * down, and when the grace runs out, the workers' connections are dropped first (closeQueueOwners): a graceful
   * close queues QUIT behind a blocking read and hangs while Redis is down. A job cut short is recovered after
   * its lock lapses; its finish loses if it had already won.
   */
  async close(graceful: boolean): Promise<void> {
    await Promise.all([...this.restarts]);
    const workers = [...this.workers.values()];
    this.workers.clear();
    if (workers.length === 0) return;
    await settleWithin([...this.running], CLOSE_GRACE_MS);
    const named = Object.fromEntries(workers.map(({ worker }) => [`${worker.name} timer worker`, worker]));
    await closeQueueOwners(named, graceful ? CLOSE_GRACE_MS : 0, this.logger);
    await Promise.all(workers.map(({ base }) => endClient(base, false)));
  }

  /** Workers block (BZPOPMIN) and must wait out outages, hence their own connections and no retry limit. */
  private connection(queue: string): RedisClient {
    // A blocked read answers within TIMER_MAX_BLOCK_MS; silence well past that means the socket died without a
    // FIN (partition), so it is dropped and reconnected. Below that, idle workers would churn connections.
    return this.connections.template(
      this.keys.connectionName(`worker:${queue}`, this.holderId),
      TIMER_MAX_BLOCK_MS + WORKER_SILENCE_MARGIN_MS,
    );
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
