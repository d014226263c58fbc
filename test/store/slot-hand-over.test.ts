// A slot job's hand-over of a burst (store/slot-hand-over.ts), with onDue and the slot's reads under the
// test's control: while a full batch's ids run low, the next batch is read, so the burst never waits for a read
// at every batch's end; ids not yet settled that the read returns again are not handed over twice; reading stops
// at a read that is not full, or after a failure; and a batch that was not full is never read ahead of (the
// job's own step reads next).
import { describe, expect, it } from 'vitest';
import { handOver, type SlotStep } from '../../src/store/slot-hand-over.js';
import { deferred, type Deferred } from '../support/deferred.js';

const ids = (from: number, to: number): string[] =>
  Array.from({ length: to - from }, (_, i) => `q${from + i}`);

/** onDue that holds each question until the test releases it, counting the calls per id. */
function heldOnDue() {
  const held = new Map<string, Deferred<void>>();
  const calls = new Map<string, number>();
  return {
    held,
    calls,
    onDue: (id: string): Promise<void> => {
      calls.set(id, (calls.get(id) ?? 0) + 1);
      const gate = deferred();
      held.set(id, gate);
      return gate.promise;
    },
    /** Releases these questions (every one started so far by default) and lets their lanes take the next. */
    async release(which: string[] = [...held.keys()]): Promise<void> {
      for (const id of which) {
        held.get(id)?.resolve();
        held.delete(id);
      }
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

const running = () => ({ runningHere: new Set<string>() });

describe("a slot job's hand-over of a burst", () => {
  it('reads the next batch while a full batch runs low, before any lane waits, and hands each id over once', async () => {
    const due = heldOnDue();
    const reads: { handed: string[]; held: number; untaken: number }[] = [];
    let untaken = 0;
    // A full batch of 60; the read made while it runs low returns the 39 not yet settled and 61 more (full);
    // the next returns only ids already read (not full): reading stops there.
    const step = (handed: string[]): Promise<SlotStep> => {
      reads.push({ handed, held: due.held.size, untaken });
      const batch = reads.length === 1 ? ids(21, 121) : ids(100, 121);
      return Promise.resolve(['due', batch]);
    };
    const done = handOver({ ...running(), onDue: due.onDue }, ids(0, 60), { step, batchSize: 60 });
    await new Promise((resolve) => setImmediate(resolve));
    // 20 lanes took q0–q19: 40 left untaken, not yet below the mark (twice the lanes).
    expect(due.held.size).toBe(20);
    expect(reads).toHaveLength(0);
    untaken = 39;
    // One released question's lane takes q20, leaving 39 untaken: the read is made now, the 19 others still held.
    await due.release(['q0']);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ handed: ['q0'], held: 19, untaken: 39 });
    while (due.held.size > 0) await due.release();
    const result = await done;
    expect([...due.calls.values()].every((n) => n === 1)).toBe(true);
    expect(due.calls.size).toBe(121);
    expect(reads).toHaveLength(2);
    // What the reads forgot and what the job's next read forgets are every question handed over, once.
    const forgotten = [...reads.flatMap((r) => r.handed), ...result.handed];
    expect(new Set(forgotten).size).toBe(forgotten.length);
    expect(forgotten.sort()).toEqual(ids(0, 121).sort());
    expect(result.retryAfterMs).toBe(0);
  });

  it('never hands over twice an id it handed over while a read was under way, which that read returns again', async () => {
    const due = heldOnDue();
    const firstRead = deferred<SlotStep>();
    let reads = 0;
    const step = (): Promise<SlotStep> =>
      ++reads === 1 ? firstRead.promise : Promise.resolve(['due', []] satisfies SlotStep);
    const done = handOver({ ...running(), onDue: due.onDue }, ids(0, 60), { step, batchSize: 60 });
    await new Promise((resolve) => setImmediate(resolve));
    await due.release(['q0']);
    expect(reads).toBe(1);
    // q1–q19 are handed over while the read is under way; it was sent before, so it did not forget them, and
    // (their onDue having left them due) it returns them again, with 40 new ids.
    await due.release(ids(1, 20));
    firstRead.resolve(['due', [...ids(1, 20), ...ids(60, 100)]]);
    while (due.held.size > 0) await due.release();
    await done;
    expect(due.calls.size).toBe(100);
    expect([...due.calls.values()].every((n) => n === 1)).toBe(true);
  });

  it('reads nothing ahead of a batch that was not full: it held every id due, and the job reads next', async () => {
    const due = heldOnDue();
    let reads = 0;
    const step = (): Promise<SlotStep> => {
      reads++;
      return Promise.resolve(['due', ids(100, 300)]);
    };
    const done = handOver({ ...running(), onDue: due.onDue }, ids(0, 25), { step, batchSize: 200 });
    await new Promise((resolve) => setImmediate(resolve));
    while (due.held.size > 0) await due.release();
    const result = await done;
    expect(result.handed).toHaveLength(25);
    expect(reads).toBe(0);
  });

  it('reads nothing ahead for a question handed over alone', async () => {
    let reads = 0;
    const step = (): Promise<SlotStep> => {
      reads++;
      return Promise.resolve(['none']);
    };
    const result = await handOver({ ...running(), onDue: () => Promise.resolve() }, ['q0'], {
      step,
      batchSize: 200,
    });
    expect(result.handed).toEqual(['q0']);
    expect(reads).toBe(0);
  });

  it('stops reading after a failure and reports it once the questions in flight have settled', async () => {
    let reads = 0;
    const failing = (id: string): Promise<void> =>
      id === 'q3' ? Promise.reject(new Error('onDue failed')) : Promise.resolve();
    const step = (): Promise<SlotStep> => {
      reads++;
      return Promise.resolve(['due', ids(100, 300)]);
    };
    // A full batch of 100: its ids run low only after q3 (among the first 20 taken) has failed.
    const reading = { step, batchSize: 100 };
    await expect(handOver({ ...running(), onDue: failing }, ids(0, 100), reading)).rejects.toThrow(
      'onDue failed',
    );
    expect(reads).toBe(0);
  });
});
