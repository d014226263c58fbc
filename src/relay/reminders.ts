// When to nudge the people a question asks: one pure function of the server's reminder policy, the time the
// person has and the moment of asking. The store only schedules the times it is given.

/** A reminder as configured (`slack.reminders`): a share of the time after the start, or a time before the deadline. */
export type ReminderSpec = { atFraction: number } | { beforeMs: number };

/** Without a policy, questions open at least this long get one nudge at half time, in ms (2 minutes). */
export const REMIND_FROM_MS = 120_000;

/**
 * The epoch ms at which to remind, for a question asked `now` with `timeoutMs` to answer. With `specs` (the
 * server's `slack.reminders`): `{ atFraction }` of the time after the start, `{ beforeMs }` before the deadline;
 * times not strictly between now and the deadline are dropped, duplicates merged, sorted. Without: one nudge at
 * half time for questions open two minutes or more, none for shorter ones.
 */
export function reminderTimes(
  specs: readonly ReminderSpec[] | undefined,
  timeoutMs: number,
  now: number,
): number[] {
  if (specs === undefined) return timeoutMs >= REMIND_FROM_MS ? [now + Math.round(timeoutMs / 2)] : [];
  const deadline = now + timeoutMs;
  const times = specs.map((spec) =>
    'atFraction' in spec ? now + Math.round(timeoutMs * spec.atFraction) : deadline - spec.beforeMs,
  );
  return [...new Set(times.filter((at) => at > now && at < deadline))].sort((a, b) => a - b);
}
