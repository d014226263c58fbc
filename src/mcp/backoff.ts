// Time and chance as the MCP side sees them, passed in so that tests run timers and jitter by hand.

/** Schedules `fn` after `ms` milliseconds; returns a function that cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void;

export interface McpClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Default setTimeout, unref'd so that a pending timer never keeps the process alive. */
  schedule: Schedule;
  /** Uniform in [0, 1): the jitter of reconnect delays. */
  random(): number;
}

/** setTimeout refuses delays above 2^31 - 1 ms (it fires at once instead); longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const realSchedule: Schedule = (fn, ms) => {
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
};

export const realClock: McpClock = { now: () => Date.now(), schedule: realSchedule, random: Math.random };

export interface BackoffOptions {
  /** Delay before the first retry, in ms; default 1000. */
  initialDelayMs: number;
  /** Longest delay between two retries, in ms; default 300000 (5 minutes). */
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialDelayMs: 1000, maxDelayMs: 300_000 };

/**
 * Exponential backoff with "equal jitter": the n-th retry (n = 0, 1, …) waits between half and all of
 * min(max, initial · 2^n), so that replicas which lost a server at the same moment do not retry in step.
 */
export function backoffDelay(
  attempt: number,
  random: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.min(attempt, 52));
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}
