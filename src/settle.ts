// Bounded waiting: let work finish, but never wait on it forever (Redis may be gone or hung).
import type { Clock } from './clock.js';

/** What times a bounded wait: its timer is cancelled once the wait is over, however it ended. */
type WaitClock = Pick<Clock, 'schedule'>;

/**
 * The default: the process's own timers, kept referenced (systemClock's are unref'd), so that work nothing else
 * keeps the process alive for still reaches its bound and what follows it (a stop's "gave up" line and the rest
 * of the stop) instead of the process ending mid-way.
 */
const processTimers: WaitClock = {
  schedule: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** `work`'s value, or `late` once `ms` pass without one; rejects when `work` fails first. */
export async function answerWithin<T>(
  work: Promise<T>,
  ms: number,
  late: T,
  clock: WaitClock = processTimers,
): Promise<T> {
  let cancel = (): void => undefined;
  const grace = new Promise<T>((resolve) => (cancel = clock.schedule(() => resolve(late), ms)));
  try {
    return await Promise.race([work, grace]);
  } finally {
    cancel();
  }
}

/** Waits for the promises to settle, or for `ms`, whichever comes first; true when they all settled. */
export async function settleWithin(
  promises: Promise<unknown>[],
  ms: number,
  clock: WaitClock = processTimers,
): Promise<boolean> {
  if (promises.length === 0) return true;
  return answerWithin(
    Promise.allSettled(promises).then(() => true),
    ms,
    false,
    clock,
  );
}
