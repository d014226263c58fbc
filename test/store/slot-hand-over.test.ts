// A slot job's hand-over of a burst (store/slot-hand-over.ts), with onDue and the slot's reads under the
// test's control: the next batch is read while the last of the previous one are still in flight, so the burst
// never waits for its slowest question at every batch's end; ids still in flight that the read returns again are
// not handed over twice; reading stops once it brings nothing new, or after a failure; and with nothing left in
// flight nothing is read ahead (the job's own step reads next).
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

describe("a slot job's hand-over of a burst", () => {
  it('reads the next batch while the last of the first are still in flight, and hands each id over once', async () => {
    const due = heldOnDue();
    const reads: { handed: string[]; inFlight: number }[] = [];
    // The first read after the first batch returns 200 more, the 5 still in flight among them; then nothing new.
    const step = (handed: string[]): Promise<SlotStep> => {
      reads.push({ handed, inFlight: due.held.size });
      const batch = reads.length === 1 ? [...ids(20, 25), ...ids(25, 225)] : ids(20, 25);
      return Promise.resolve(['due', batch]);
    };
    const done = handOver({ runningHere: new Set(), onDue: due.onDue }, ids(0, 25), step);
    await new Promise((resolve) => setImmediate(resolve));
    // 20 lanes took q0–q19; q20–q24 wait for a lane, which five released questions give them.
    expect(due.held.size).toBe(20);
    await due.release(ids(0, 5));
    expect(reads).toHaveLength(0);
    // The next lane to free finds nothing left to take: it reads on while the 14 others of the batch are held.
    await due.release(['q5']);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.inFlight).toBeGreaterThanOrEqual(14);
    while (due.held.size > 0) await due.release();
    const result = await done;
    expect([...due.calls.values()].every((n) => n === 1)).toBe(true);
    expect(due.calls.size).toBe(225);
    expect(reads).toHaveLength(2);
    // What the reads forgot and what the job's next read forgets are every question handed over, once.
    const forgotten = [...reads.flatMap((r) => r.handed), ...result.handed];
    expect(new Set(forgotten).size).toBe(forgotten.length);
    expect(forgotten.sort()).toEqual(ids(0, 225).sort());
    expect(result.retryAfterMs).toBe(0);
  });

  it('reads nothing ahead for a question handed over alone: the job reads next, and decides more', async () => {
    let reads = 0;
    const step = (): Promise<SlotStep> => {
      reads++;
      return Promise.resolve(['none']);
    };
    const result = await handOver({ runningHere: new Set(), onDue: () => Promise.resolve() }, ['q0'], step);
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
    await expect(handOver({ runningHere: new Set(), onDue: failing }, ids(0, 30), step)).rejects.toThrow(
      'onDue failed',
    );
    expect(reads).toBe(0);
  });
});
