// A clock whose waits end at once and are recorded (ms, in order): for code that waits between tries, so a test
// proves how long it would have waited without spending the time. Its time moves on by each wait.
import type { Clock } from '../../src/clock.js';

export function recordingClock(): Pick<Clock, 'now' | 'schedule'> & { waits: number[] } {
  const waits: number[] = [];
  const start = Date.now();
  return {
    waits,
    now: () => start + waits.reduce((sum, ms) => sum + ms, 0),
    schedule: (fn, ms) => {
      waits.push(ms);
      fn();
      return () => undefined;
    },
  };
}
