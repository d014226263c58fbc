// Heals this replica's timeout worker when it takes no job any more. BullMQ workers have been seen to wedge for
// good while looking alive: a blocking connection's connect() that never settled (63a8c74, ioredis#709), and
// other open reports (bullmq#4138). The rescue (slot-rescue.ts) gives a slot that lost its job a new one, but a
// new job does not help a worker that takes none, and questions then stay pending far past their deadline.
// Each replica running timeouts looks every WATCH_EVERY_MS: when the most overdue question is late beyond the
// rescue's chance (rescueAfterMs) and STUCK_AFTER_MS more, its slot's job has waited that long for a worker
// since it came due, and this replica's worker took no job in that time, that worker is closed and made anew.
// A restart changes no deadline and ends nothing itself: the new worker runs the job, whose finish (a CAS on
// Redis TIME) refuses an early timeout and ends each question once.
import type { Job, Queue } from 'bullmq';
import type { Clock } from '../clock.js';
import type { Keys, RedisClient, StoreLogger } from '../redis/index.js';
import { StreakLines } from '../streak-lines.js';
import { overdueMs as lateness, readOldestDue } from './overdue.js';
import type { StoreScripts } from './scripts.js';
import { RESCUE_AFTER_MS } from './slot-rescue.js';
import { slotOf } from './slots.js';
import type { TimerSettings } from './timers.js';

/** How often a replica looks at its timeout worker, ms: one script while nothing is overdue. */
export const WATCH_EVERY_MS = 15_000;
/**
 * How long a due job may wait for a live worker, ms: past the longest a healthy deployment takes to run it
 * (TIMEOUT_RECOVERY_BOUND_MS + TIMER_MAX_BLOCK_MS, 25 s by default, for a job held by a dead or paused worker).
 */
export const STUCK_AFTER_MS = 30_000;
/** Job states in which a live worker would take the job now that it is due. */
const WAITING = new Set(['waiting', 'prioritized', 'delayed']);

/** What one look found, each time on the clock it is measured by. */
export interface Signs {
  /** How far past its deadline the most overdue pending question is, ms (Redis TIME). */
  overdueMs: number;
  /** Its slot's job: its BullMQ state, retries so far, and how long since it came due (the marker's w), ms. */
  job: { state: string; attemptsMade: number; dueForMs: number } | undefined;
  /** How long ago this replica's worker took a job or was made, ms (the store's clock); undefined: none runs. */
  idleMs: number | undefined;
}

/** The watch's thresholds, ms: rescueAfterMs (default RESCUE_AFTER_MS) and stuckAfterMs (STUCK_AFTER_MS). */
export interface Limits {
  rescueAfterMs: number;
  stuckAfterMs: number;
}

/**
 * True when the worker is stuck. A delayed job that already failed waits for its retry (BullMQ's backoff, at
 * most 8 s): it was taken, so it tells nothing of the workers; one that failed for good is the rescue's.
 */
export function stuck(signs: Signs, limits: Limits): boolean {
  const { overdueMs, job, idleMs } = signs;
  if (overdueMs <= limits.rescueAfterMs + limits.stuckAfterMs) return false;
  if (idleMs === undefined || idleMs <= limits.stuckAfterMs) return false;
  if (job === undefined || !WAITING.has(job.state)) return false;
  if (job.state === 'delayed' && job.attemptsMade > 0) return false;
  return job.dueForMs > limits.stuckAfterMs;
}

/** This replica's timeout worker, as the watch sees it (Timers for the timeout queue). */
export interface WatchedWorker {
  idleMs(): number | undefined;
  restart(): Promise<void>;
}

export interface WatchDeps {
  cmd: RedisClient & StoreScripts;
  keys: Keys;
  /** The timeout queue, where a slot's job is read. */
  queue: Queue;
  worker: WatchedWorker;
  /** The store's clock: the looks' timers and the log lines' spacing. */
  clock: Pick<Clock, 'now' | 'schedule'>;
  logger: StoreLogger;
}

type WatchSettings = Pick<TimerSettings, 'watchEveryMs' | 'stuckAfterMs' | 'rescueAfterMs'>;

export class TimeoutWatch {
  private cancel: (() => void) | undefined;
  private looking: Promise<void> | undefined;
  private stopped = false;
  private readonly limits: Limits;
  /** A restart's warn line the first time, then at most every 5 min with the count (src/streak-lines.ts). */
  private readonly lines: StreakLines;
  /** Looks that failed (Redis away: its connections log the outage), told as sparingly. */
  private readonly failures: StreakLines;

  constructor(
    private readonly deps: WatchDeps,
    private readonly settings: WatchSettings = {},
  ) {
    this.limits = {
      rescueAfterMs: settings.rescueAfterMs ?? RESCUE_AFTER_MS,
      stuckAfterMs: settings.stuckAfterMs ?? STUCK_AFTER_MS,
    };
    this.lines = new StreakLines(deps.clock);
    this.failures = new StreakLines(deps.clock);
  }

  start(): void {
    if (this.stopped || this.cancel) return;
    this.cancel = this.deps.clock.schedule(() => {
      this.cancel = undefined;
      this.looking = this.once()
        .then(() => undefined)
        .catch((err: unknown) => this.failed(err))
        .finally(() => {
          this.looking = undefined;
          this.start();
        });
    }, this.settings.watchEveryMs ?? WATCH_EVERY_MS);
  }

  /** One look; true when it restarted the worker. */
  async once(): Promise<boolean> {
    const signs = await this.signs();
    this.failures.ended();
    if (!stuck(signs, this.limits)) {
      const end = signs.overdueMs > this.limits.rescueAfterMs ? undefined : this.lines.ended();
      if (end) this.deps.logger.info({ ...end }, 'the timeout worker takes jobs again');
      return false;
    }
    await this.deps.worker.restart();
    const line = this.lines.occurred();
    const { job, idleMs, overdueMs } = signs;
    if (line)
      this.deps.logger.warn({ ...line, overdueMs, idleMs, job }, 'timeout worker took no job; restarted it');
    return true;
  }

  private failed(err: unknown): void {
    const line = this.failures.occurred();
    if (line) this.deps.logger.warn({ err, ...line }, 'looking at the timeout worker failed');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    this.cancel = undefined;
    await this.looking;
  }

  /** The look's reads: one script, and the slot's job only once a question is late enough to matter. */
  private async signs(): Promise<Signs> {
    const look = await readOldestDue(this.deps.cmd, this.deps.keys);
    const { now, oldest } = look;
    const overdueMs = lateness(look);
    const idleMs = this.deps.worker.idleMs();
    const late = overdueMs > this.limits.rescueAfterMs + this.limits.stuckAfterMs;
    if (!late || oldest === undefined || idleMs === undefined) return { overdueMs, job: undefined, idleMs };
    return { overdueMs, job: await this.slotJob(slotOf(oldest.deadline), now), idleMs };
  }

  /** The slot's current job (its marker names it) and how long since it came due (w), on Redis TIME `now`. */
  private async slotJob(slot: number, now: number): Promise<Signs['job']> {
    const [gen, w] = await this.deps.cmd.hmget(this.deps.keys.slot(String(slot)), 'g', 'w');
    if (gen === null || w === null) return undefined;
    const job: Job | undefined = await this.deps.queue.getJob(`${slot}.${gen}`);
    if (job === undefined) return undefined;
    return { state: await job.getState(), attemptsMade: job.attemptsMade, dueForMs: now - Number(w) };
  }
}
