// The callers of Outbox.send waiting for their calls' results: one 'completed' and one 'failed' listener per
// outbox, and a map from job id to its waiters. BullMQ's Job.waitUntilFinished instead adds a 'closing'
// listener to the one Queue per waiting call, so a flood of cards (posts paced 1/s per channel, each send
// waiting for its ts) passed Node's limit of 10 and warned MaxListenersExceededWarning (issue 15.13).
import type { QueueEvents } from 'bullmq';
import type { OutboxResult } from './types.js';

/** Why a wait ended without the call's result. */
export type WaitFailure = 'failed' | 'timed_out' | 'closed';

interface Waiter {
  settle: (result: OutboxResult | WaitFailure) => void;
}

export class Waiters {
  private readonly waiting = new Map<string, Set<Waiter>>();

  constructor(events: QueueEvents) {
    events.on('completed', ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) => {
      // QueueEvents parses the stored JSON; a value that is not an OutboxResult counts as a failed call.
      this.settle(jobId, isOutboxResult(returnvalue) ? returnvalue : 'failed');
    });
    events.on('failed', ({ jobId }) => this.settle(jobId, 'failed'));
  }

  /**
   * Resolves with job `id`'s result, or why there is none, within `ttlMs`. Call it before the job can
   * finish (before it is added) so its completion cannot be missed.
   */
  wait(id: string, ttlMs: number): { result: Promise<OutboxResult | WaitFailure>; cancel: () => void } {
    let waiter: Waiter | undefined;
    const result = new Promise<OutboxResult | WaitFailure>((resolve) => {
      const timer = setTimeout(() => done('timed_out'), ttlMs);
      const done = (value: OutboxResult | WaitFailure): void => {
        clearTimeout(timer);
        this.remove(id, self);
        resolve(value);
      };
      const self: Waiter = { settle: done };
      waiter = self;
      const set = this.waiting.get(id) ?? new Set<Waiter>();
      set.add(self);
      this.waiting.set(id, set);
    });
    return { result, cancel: () => waiter?.settle('closed') };
  }

  /** Settles every waiter of job `id` (a result read back for a job that had finished before it was added). */
  settle(id: string, value: OutboxResult | WaitFailure): void {
    for (const waiter of [...(this.waiting.get(id) ?? [])]) waiter.settle(value);
  }

  /** Ends every wait with 'closed' (the outbox is closing, no result will come). */
  closeAll(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, 'closed');
  }

  private remove(id: string, waiter: Waiter): void {
    const set = this.waiting.get(id);
    set?.delete(waiter);
    if (set?.size === 0) this.waiting.delete(id);
  }
}

export function isOutboxResult(value: unknown): value is OutboxResult {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  return value.ok === true || ('error' in value && typeof value.error === 'string');
}
