// A slot job's hand-over of its due questions to onDue (store/slots.ts): SLOT_CONCURRENCY at a time, reading the
// slot's next due ids while the last ones are still in flight.
import { NotDueError } from './errors.js';

/** SLOT_NEXT_LUA's reply. */
export type SlotStep = ['due', string[]] | ['wait', string, string] | ['done'] | ['none'];

/** onDue calls a slot job runs at once: a burst of one slot's questions is finished this many at a time. */
const SLOT_CONCURRENCY = 20;

/** Who takes the questions, and the set naming those it is running (Finisher.timeoutJobHere). */
export interface OnDue {
  runningHere: Set<string>;
  onDue: (questionId: string) => Promise<void>;
}

/** One burst's hand-over: the ids read so far, those handed over, and what stops the reads. */
class HandOver {
  readonly handed: string[] = [];
  retryAfterMs = 0;
  failure: { err: unknown } | undefined;
  private next = 0;
  /** Ids taken and not yet settled (settled()). */
  private inFlight = 0;
  private readonly seen: Set<string>;
  private refilling: Promise<void> | undefined;
  private exhausted = false;

  constructor(
    private readonly ids: string[],
    /** A read ahead (SLOT_NEXT_LUA's): forgets `handed`, reads due ids, never changes the slot's marker. */
    private readonly step: (handed: string[]) => Promise<SlotStep>,
  ) {
    this.seen = new Set(ids);
  }

  /**
   * The next id to hand over. When the ids read run out while others are still in flight, the slot's next due
   * ones are read now (forgetting those handed over so far), so a burst flows on instead of stalling at the
   * end of every batch for the last onDue and a read (issue #19 goal 4). Ids still in flight are due too and
   * come back in that read: they are skipped. Reads stop at the first that brings nothing new, or once a
   * finish was refused as early or failed; the job's own loop then reads again. With nothing in flight there is
   * nothing to overlap a read with, so none is made: the job's own step reads as well, and decides more.
   */
  async take(): Promise<string | undefined> {
    for (;;) {
      const id = this.ids[this.next];
      if (id !== undefined) {
        this.next++;
        this.inFlight++;
        return id;
      }
      if (this.exhausted || this.retryAfterMs > 0 || this.failure) return undefined;
      if (this.refilling === undefined && this.inFlight === 0) return undefined;
      this.refilling ??= this.refill().finally(() => (this.refilling = undefined));
      await this.refilling;
    }
  }

  /** An id taken has been handed over, or its onDue failed. */
  settled(): void {
    this.inFlight--;
  }

  private async refill(): Promise<void> {
    const handed = this.handed.splice(0);
    let step: SlotStep;
    try {
      step = await this.step(handed);
    } catch {
      // The job's own read comes next and forgets them then; its failure is the one to report.
      this.handed.unshift(...handed);
      this.exhausted = true;
      return;
    }
    const fresh = step[0] === 'due' ? step[1].filter((id) => !this.seen.has(id)) : [];
    for (const id of fresh) this.seen.add(id);
    this.ids.push(...fresh);
    if (fresh.length === 0) this.exhausted = true;
  }
}

/**
 * Runs onDue for each id, SLOT_CONCURRENCY at a time, reading the slot's next due ids as they run out
 * (HandOver.take); reports the ids it resolved for that were not forgotten by such a read (they leave the due
 * index on the next step: their timeout was handled, as a completed per-question job was) and the ms to wait when
 * a finish was refused as early, else 0; rethrows the first other failure once all have settled.
 */
export async function handOver(
  { runningHere, onDue }: OnDue,
  ids: string[],
  step: (handed: string[]) => Promise<SlotStep>,
): Promise<{ handed: string[]; retryAfterMs: number }> {
  const work = new HandOver(ids, step);
  const lane = async (): Promise<void> => {
    for (let id = await work.take(); id !== undefined; id = await work.take()) {
      runningHere.add(id);
      try {
        await onDue(id);
        work.handed.push(id);
      } catch (err) {
        if (err instanceof NotDueError) work.retryAfterMs = Math.max(work.retryAfterMs, err.retryAfterMs);
        else work.failure ??= { err };
      } finally {
        runningHere.delete(id);
        work.settled();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SLOT_CONCURRENCY, ids.length) }, lane));
  if (work.failure) throw work.failure.err;
  return { handed: work.handed, retryAfterMs: work.retryAfterMs };
}
