// Waits that one stop() cuts short (src/slack/stoppable-waits.ts), on a clock the test moves: a wait ends when
// its time comes, stop() rejects every wait in progress and cancels its timer, and a wait asked for after it is
// refused without a timer.
import { describe, expect, it } from 'vitest';
import { StoppableWaits, WaitStoppedError } from '../../src/slack/stoppable-waits.js';
import { steppedClock } from '../support/stepped-clock.js';

describe('StoppableWaits', () => {
  it('resolves a wait once its time has passed on the clock, not before', async () => {
    const clock = steppedClock();
    let done = false;
    void new StoppableWaits(clock).wait(1_000).then(() => (done = true));
    await clock.advance(999);
    expect(done).toBe(false);
    expect(clock.pending()).toBe(1);
    await clock.advance(1);
    expect(done).toBe(true);
    expect(clock.pending()).toBe(0);
  });

  it('cuts every wait in progress short at stop(), cancelling their timers, and refuses waits after it', async () => {
    const clock = steppedClock();
    const waits = new StoppableWaits(clock);
    const waiting = [waits.wait(1_000), waits.wait(60_000)];
    expect(clock.pending()).toBe(2);
    waits.stop();
    for (const wait of waiting) await expect(wait).rejects.toBeInstanceOf(WaitStoppedError);
    expect(clock.pending()).toBe(0);
    await expect(waits.wait(1_000)).rejects.toMatchObject({ code: 'stopped' });
    expect(clock.pending()).toBe(0);
  });
});
