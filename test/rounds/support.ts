// Set-up shared by the round keeper's tests: a clock moved by hand and one durable round to open.
import type { DurableRound } from '../../src/mcp/index.js';

/** Lets promise callbacks already queued run (e.g. the keeper's own, once the store answered). */
export const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Time moved by hand (ms): fire() runs the earliest timer at its own time; advance() runs each timer that comes
 * due, in order, letting each one's async work settle before the next.
 */
export function handClock(start = 1_000_000) {
  let now = start;
  const timers = new Set<{ at: number; fn: () => void }>();
  const earliest = (until: number) => [...timers].filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
  const run = (timer: { at: number; fn: () => void }): void => {
    timers.delete(timer);
    now = timer.at;
    timer.fn();
  };
  return {
    now: () => now,
    schedule: (fn: () => void, ms: number) => {
      const timer = { at: now + ms, fn };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    armed: () => timers.size,
    fire(): void {
      const next = earliest(Infinity);
      if (next === undefined) throw new Error('no timer armed');
      run(next);
    },
    async advance(ms: number): Promise<void> {
      const until = now + ms;
      for (let next = earliest(until); next !== undefined; next = earliest(until)) {
        run(next);
        await settled();
      }
      now = until;
    },
  };
}

/** A sealed first round of the `counted` tool on server `modern`, waiting on one request (key `a`). */
export const round: DurableRound = {
  server: 'modern',
  tool: 'counted',
  args: { n: 1 },
  origin: { userId: 'U1' },
  requestState: 'sealed',
  requests: [{ key: 'a', request: { method: 'elicitation/create' } }],
  round: 1,
  deadline: Date.now() + 600_000,
};
