// Wakes the queue's workers when a delayed call is due. An idle BullMQ worker blocks on the queue's marker
// (BZPOPMIN) until the next delayed job's time, but Redis ends a blocking command's timeout only at its own
// clock tick (`hz`, 10 a second by default): a paced call went out 0-100 ms after its slot, and each late post
// moved its channel's later slots on with it. The replica that delayed a call therefore also writes the
// marker itself at the call's time, as BullMQ does when it adds a job that is ready; the woken worker then
// promotes what is due by its own clock, so a wake never makes a call early, and a wake lost with its replica
// only leaves the call to BullMQ's own timeout.
import type { QueueBase } from 'bullmq';
import type { Schedule } from '../../clock.js';
import type { RedisClient, StoreLogger } from '../../redis/index.js';

/**
 * A wake fires this long after the call's time, in ms: a worker on another replica promotes by its own
 * Date.now(), and one woken before the job is due blocks again (to Redis's next tick).
 */
export const WAKE_AFTER_MS = 2;

/** Writes `queue`'s marker as BullMQ does for a job that is ready: an idle worker blocked on it wakes. */
export const markerWake =
  (queue: Pick<QueueBase, 'toKey'>, client: RedisClient): (() => Promise<unknown>) =>
  () =>
    client.zadd(queue.toKey('marker'), 0, '0');

export class DelayedWakes {
  /** Pending wakes by their time (epoch ms): calls due in the same millisecond share one. */
  private readonly pending = new Map<number, () => void>();
  private closed = false;

  /**
   * @param wake writes the queue's marker (a worker blocked on it takes what is due)
   * @param schedule runs a function after a delay; its timers never keep the process alive
   */
  constructor(
    private readonly wake: () => Promise<unknown>,
    private readonly schedule: Schedule,
    private readonly logger: StoreLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Wakes a worker at `dueAt` (epoch ms, Date.now() as BullMQ's delays use) + WAKE_AFTER_MS. */
  at(dueAt: number): void {
    if (this.closed || this.pending.has(dueAt)) return;
    const cancel = this.schedule(
      () => {
        this.pending.delete(dueAt);
        this.wake().catch((err: unknown) => {
          this.logger.warn(
            { err },
            'outbox: could not wake a worker for a delayed call (BullMQ takes it later)',
          );
        });
      },
      Math.max(0, dueAt - this.now()) + WAKE_AFTER_MS,
    );
    this.pending.set(dueAt, cancel);
  }

  /** Cancels every pending wake: the calls stay queued for any replica's worker to take at BullMQ's time. */
  close(): void {
    this.closed = true;
    for (const cancel of this.pending.values()) cancel();
    this.pending.clear();
  }
}
