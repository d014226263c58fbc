// Bounded waits (src/settle.ts) on a clock the test moves: the work's value before the bound, `late` at it, and
// never a timer left behind, so a pending bound neither fires late nor keeps the process alive.
import { describe, expect, it } from 'vitest';
import { answerWithin, settleWithin } from '../src/settle.js';
import { deferred } from './support/deferred.js';
import { steppedClock } from './support/stepped-clock.js';

/** Records when `promise` settles (its value or failure), so the test can tell a pending wait from an ended one. */
function watch<T>(promise: Promise<T>): { settled: () => { value?: T; error?: unknown } | undefined } {
  let outcome: { value?: T; error?: unknown } | undefined;
  void promise.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  return { settled: () => outcome };
}

describe('answerWithin', () => {
  it("answers with the work's value when it comes before the bound, and cancels the bound's timer", async () => {
    const clock = steppedClock();
    const work = deferred<string>();
    const answer = watch(answerWithin(work.promise, 1_000, 'late', clock));
    await clock.advance(999);
    expect(answer.settled()).toBeUndefined();
    expect(clock.pending()).toBe(1);
    work.resolve('done');
    await clock.turn();
    expect(answer.settled()).toEqual({ value: 'done' });
    expect(clock.pending()).toBe(0);
  });

  it('answers `late` once the bound passes without a value, leaving no timer behind', async () => {
    const clock = steppedClock();
    const answer = watch(answerWithin(new Promise<string>(() => undefined), 1_000, 'late', clock));
    await clock.advance(999);
    expect(answer.settled()).toBeUndefined();
    await clock.advance(1);
    expect(answer.settled()).toEqual({ value: 'late' });
    expect(clock.pending()).toBe(0);
  });

  it("rejects with the work's failure when it fails before the bound, and cancels the bound's timer", async () => {
    const clock = steppedClock();
    const boom = new Error('boom');
    const work = deferred<string>();
    const answer = watch(answerWithin(work.promise, 1_000, 'late', clock));
    expect(clock.pending()).toBe(1);
    work.reject(boom);
    await clock.turn();
    expect(answer.settled()).toEqual({ error: boom });
    expect(clock.pending()).toBe(0);
  });
});

describe('settleWithin', () => {
  it('is true once every promise settled (failures too) before the bound, and cancels its timer', async () => {
    const clock = steppedClock();
    const first = deferred();
    const second = deferred();
    const settled = watch(settleWithin([first.promise, second.promise], 1_000, clock));
    first.resolve();
    await clock.advance(500);
    expect(settled.settled()).toBeUndefined();
    expect(clock.pending()).toBe(1);
    second.reject(new Error('failed'));
    await clock.turn();
    expect(settled.settled()).toEqual({ value: true });
    expect(clock.pending()).toBe(0);
  });

  it('is false once the bound passes with a promise still pending, leaving no timer behind', async () => {
    const clock = steppedClock();
    const settled = watch(settleWithin([Promise.resolve(), new Promise(() => undefined)], 1_000, clock));
    await clock.advance(999);
    expect(settled.settled()).toBeUndefined();
    await clock.advance(1);
    expect(settled.settled()).toEqual({ value: false });
    expect(clock.pending()).toBe(0);
  });
});
