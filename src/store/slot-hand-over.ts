// A slot job's hand-over of its due questions to onDue (store/slots.ts): SLOT_CONCURRENCY at a time, reading the
// slot's next due ids while those read run low.
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

/** The slot's reads a hand-over makes ahead, and the most ids one read returns (SLOT_NEXT_LUA's LIMIT). */
export interface SlotReads {
  /** A read ahead: forgets `handed`, reads due ids, never changes the slot's marker. */
  step: (handed: string[]) => Promise<SlotStep>;
  batchSize: number;
}

/**
 * Ids read and not yet taken below which the next due ones are read: twice the lanes, so the read's reply (queued
 * behind the finishes in flight, ~1 ms in a burst) is back before the lanes run dry. Read only once they had run
 * dry, the lanes freed at each batch's end waited for it.
 */
const READ_AHEAD_BELOW = 2 * SLOT_CONCURRENCY;

/** One burst's hand-over: the ids read and not yet taken, those handed over, and what stops the reads. */
class HandOver {
  readonly handed: string[] = [];
  retryAfterMs = 0;
  failure: { err: unknown } | undefined;
  private next = 0;
  /**
   * Ids read and not yet forgotten by a read that completed: those a read may return again (in flight, not yet
   * taken, failed, or handed over since the read was sent). At most a few batches, however long the burst.
   */
  private readonly unforgotten: Set<string>;
  private reading: Promise<void> | undefined;
  /** The last read returned a full batch: more may be due. */
  private more: boolean;

  constructor(
    private readonly ids: string[],
    private readonly reads: SlotReads,
  ) {
    this.unforgotten = new Set(ids);
    this.more = ids.length >= reads.batchSize;
  }

  /**
   * The next id to hand over, or undefined once every id read is taken and no read is under way. While a full
   * batch's ids run low, the slot's next due ones are read (forgetting those handed over so far), so a burst
   * flows on instead of stalling at every batch's end. Ids not yet settled are due too and come back in that
   * read: they are skipped. Reads stop at one that is not full or brings nothing new, or once a finish was
   * refused as early or failed; the job's own step then reads, and decides more. A batch that was not full held
   * every id due when it was read, so nothing is read ahead for it (a lone question costs no extra read).
   */
  async take(): Promise<string | undefined> {
    for (;;) {
      const id = this.ids[this.next];
      if (id !== undefined) {
        this.next++;
        this.readAheadIfLow();
        return id;
      }
      if (this.reading === undefined) return undefined;
      await this.reading;
    }
  }

  private readAheadIfLow(): void {
    if (!this.more || this.reading || this.failure || this.retryAfterMs > 0) return;
    if (this.ids.length - this.next >= READ_AHEAD_BELOW) return;
    this.reading = this.readAhead().finally(() => (this.reading = undefined));
  }

  private async readAhead(): Promise<void> {
    const handed = this.handed.splice(0);
    let step: SlotStep;
    try {
      step = await this.reads.step(handed);
    } catch {
      // The job's own read comes next and forgets them then; its failure is the one to report.
      this.handed.unshift(...handed);
      this.more = false;
      return;
    }
    for (const id of handed) this.unforgotten.delete(id);
    const read = step[0] === 'due' ? step[1] : [];
    const fresh = read.filter((id) => !this.unforgotten.has(id));
    for (const id of fresh) this.unforgotten.add(id);
    // Ids taken are let go: a burst of 100,000 keeps a few batches of ids, not all it has read.
    this.ids.splice(0, this.next);
    this.next = 0;
    this.ids.push(...fresh);
    this.more = read.length >= this.reads.batchSize && fresh.length > 0;
  }
}

/**
 * Runs onDue for each id, SLOT_CONCURRENCY at a time, reading the slot's next due ids as they run low
 * (HandOver.take); reports the ids it resolved for that were not forgotten by such a read (they leave the due
 * index on the next step: their timeout was handled, as a completed per-question job was) and the ms to wait when
 * a finish was refused as early, else 0; rethrows the first other failure once all have settled.
 */
export async function handOver(
  { runningHere, onDue }: OnDue,
  ids: string[],
  reads: SlotReads,
): Promise<{ handed: string[]; retryAfterMs: number }> {
  const work = new HandOver(ids, reads);
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
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SLOT_CONCURRENCY, ids.length) }, lane));
  if (work.failure) throw work.failure.err;
  return { handed: work.handed, retryAfterMs: work.retryAfterMs };
}
