// Wakes a BullMQ queue's workers when a delayed job is due. An idle worker blocks on the queue's marker
// (BZPOPMIN) until the next delayed job's time, but Redis ends a blocking command's timeout only at its own
// clock tick (`hz`, 10 a second by default): a delayed job ran 0-100 ms after its time (a paced Slack call, a
// timeout slot's job). The replica that delays a job therefore also writes the marker itself at the job's
// time, as BullMQ does when it adds a job that is ready; the woken worker then promotes what is due by its own
// clock, so a wake never runs a job early, and a wake lost with its replica only leaves the job to BullMQ's own
// timeout.
import type { Job, QueueBase } from 'bullmq';
import type { Schedule } from '../clock.js';
import type { StoreLogger } from './connection.js';
import type { RedisClient } from './topology.js';

/**
 * A wake fires this long after the job's time, in ms: a worker on another replica promotes by its own
 * Date.now(), and one woken before the job is due blocks again (to Redis's next tick).
 */
export const WAKE_AFTER_MS = 2;

/** Writes `queue`'s marker as BullMQ does for a job that is ready: an idle worker blocked on it wakes. */
export const markerWake =
  (queue: Pick<QueueBase, 'toKey'>, client: RedisClient): (() => Promise<unknown>) =>
  () =>
    client.zadd(queue.toKey('marker'), 0, '0');

export interface QueueWakesOptions {
  /** Writes the queue's marker (markerWake): a worker blocked on it takes what is due. */
  wake: () => Promise<unknown>;
  /** Runs a function after a delay; its timers never keep the process alive. */
  schedule: Schedule;
  logger: StoreLogger;
  /** The queue's name, for the log. */
  queue: string;
  /** Epoch ms as BullMQ dates delayed jobs; default Date.now. */
  now?: () => number;
}

export class QueueWakes {
  /** Pending wakes by their time (epoch ms): jobs due in the same millisecond share one. */
  private readonly pending = new Map<number, () => void>();
  private closed = false;

  constructor(private readonly o: QueueWakesOptions) {}

  /** Wakes a worker at `dueAt` (epoch ms, Date.now() as BullMQ's delays use) + WAKE_AFTER_MS. */
  at(dueAt: number): void {
    if (this.closed || this.pending.has(dueAt)) return;
    const cancel = this.o.schedule(
      () => {
        this.pending.delete(dueAt);
        this.o.wake().catch((err: unknown) => {
          this.o.logger.warn({ err, queue: this.o.queue }, 'could not wake a worker for a delayed job');
        });
      },
      Math.max(0, dueAt - this.now()) + WAKE_AFTER_MS,
    );
    this.pending.set(dueAt, cancel);
  }

  /** Puts a job its worker holds back until `dueAt` (BullMQ moveToDelayed, epoch ms) and wakes a worker then. */
  async putBack(job: Pick<Job, 'moveToDelayed'>, dueAt: number, token: string | undefined): Promise<void> {
    await job.moveToDelayed(dueAt, token);
    this.at(dueAt);
  }

  /** Moves a delayed job to `delayMs` from now (BullMQ changeDelay) and wakes a worker then. */
  async move(job: Pick<Job, 'changeDelay'>, delayMs: number): Promise<void> {
    await job.changeDelay(delayMs);
    this.at(this.now() + delayMs);
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** Cancels every pending wake: the jobs stay delayed for any replica's worker to take at BullMQ's time. */
  close(): void {
    this.closed = true;
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
  }
}
