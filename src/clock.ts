// Time and chance as the whole bot sees them (the relay, the Slack side, the MCP side): one shape, passed in,
// so that tests move time, run timers and fix jitter by hand instead of waiting.

/** Schedules `fn` after `ms` milliseconds; returns a function that cancels it (a no-op once it ran). */
export type Schedule = (fn: () => void, ms: number) => () => void;

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `fn` later; the system clock's timers are unref'd, so a pending one never keeps the process alive. */
  schedule: Schedule;
  /** Uniform in [0, 1): jitter (for example of reconnect delays). */
  random(): number;
}

/** setTimeout refuses delays above 2^31 - 1 ms (it fires at once instead); longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const systemSchedule: Schedule = (fn, ms) => {
  if (ms > MAX_TIMER_MS) return chained(fn, ms);
  // The common case is one timer and one closure: a long-poll keeps this for its whole wait (issue #16).
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** A wait longer than one timer allows, as timers in a row. */
function chained(fn: () => void, ms: number): () => void {
  let cancelled = false;
  let timer: NodeJS.Timeout;
  const arm = (left: number): void => {
    timer = setTimeout(
      () => {
        if (cancelled) return;
        if (left > MAX_TIMER_MS) arm(left - MAX_TIMER_MS);
        else fn();
      },
      Math.min(left, MAX_TIMER_MS),
    );
    timer.unref();
  };
  arm(ms);
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

/** The process's own time, timers and randomness. */
export const systemClock: Clock = { now: () => Date.now(), schedule: systemSchedule, random: Math.random };
