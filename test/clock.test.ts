// The system clock's schedule, on vitest's fake timers: it runs once after its delay, never once cancelled, and
// a delay past setTimeout's 2^31 - 1 ms limit (which would fire at once) waits its whole length.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../src/clock.js';

const LIMIT_MS = 2 ** 31 - 1;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the system clock', () => {
  it('runs a scheduled call once its delay has passed, not before', () => {
    const fn = vi.fn();
    systemClock.schedule(fn, 1_000);
    vi.advanceTimersByTime(999);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledOnce();
  });

  it('never runs a call cancelled before its time', () => {
    const fn = vi.fn();
    const cancel = systemClock.schedule(fn, 1_000);
    cancel();
    vi.advanceTimersByTime(5_000);
    expect(fn).not.toHaveBeenCalled();
  });

  it('waits the whole of a delay longer than one timer allows', () => {
    const fn = vi.fn();
    systemClock.schedule(fn, LIMIT_MS + 5_000);
    vi.advanceTimersByTime(LIMIT_MS);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5_000);
    expect(fn).toHaveBeenCalledOnce();
  });

  it('never runs a long call cancelled after its first timer', () => {
    const fn = vi.fn();
    const cancel = systemClock.schedule(fn, LIMIT_MS + 5_000);
    vi.advanceTimersByTime(LIMIT_MS + 1);
    cancel();
    vi.advanceTimersByTime(10_000);
    expect(fn).not.toHaveBeenCalled();
  });
});
