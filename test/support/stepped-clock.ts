// A clock whose timers run only when the test moves it: `turn()` runs those due now, as one loop turn, and
// `pending()` counts those still to run, so a test proves that a wait cancelled its timer.
import type { Clock } from '../../src/clock.js';

interface Timer {
  at: number;
  fn: () => void;
  cancelled: boolean;
}

export interface SteppedClock extends Pick<Clock, 'now' | 'schedule'> {
  /** Runs the timers due now, then lets the continuations they released run. */
  turn(): Promise<void>;
  /** Moves time on by `ms`, then turns. */
  advance(ms: number): Promise<void>;
  /** Timers neither run nor cancelled yet. */
  pending(): number;
}

/** A SteppedClock at 0. */
export function steppedClock(): SteppedClock {
  let now = 0;
  let timers: Timer[] = [];
  const turn = async (): Promise<void> => {
    const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
    timers = timers.filter((t) => !due.includes(t));
    for (const t of due) if (!t.cancelled) t.fn();
    // The released waiters' continuations run before the next turn, as microtasks do.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    now: () => now,
    schedule: (fn, ms) => {
      const timer = { at: now + ms, fn, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    turn,
    advance: async (ms) => {
      now += ms;
      await turn();
    },
    pending: () => timers.filter((t) => !t.cancelled).length,
  };
}
