// Reminder jobs: one BullMQ delayed job per reminder time, jobId `<question id>-r<n>`. The question hash keeps
// the count (field `reminders`) so the winning finish can remove them; a reminder that still comes due finds
// the question no longer pending and is skipped. One that comes due before its question's card is out waits
// for the card in its job (one job: whichever replica's worker holds it sends it, once). One that would go out at
// or after the deadline (its wait for the card outlasted it, or the timeout's job is yet to run) is dropped.
import { DelayedError, type Job, type Queue } from 'bullmq';
import type { RedisClient } from '../redis/index.js';
import type { Question } from '../relay/types.js';
import type { Keys } from '../redis/index.js';
import type { JobData } from './timers.js';

export const reminderJobId = (questionId: string, n: number): string => `${questionId}-r${n}`;

/** Adds one delayed job per time in `remindAt` (epoch ms on the Redis clock); past times fire at once. */
export async function addReminders(queue: Queue, q: Question, remindAt: number[], retentionSec: number) {
  const jobs = remindAt.map((at, n) => ({
    name: 'reminder',
    data: { id: q.id, at } satisfies JobData,
    opts: {
      jobId: reminderJobId(q.id, n),
      // Dated from the question's creation, not from this add (see SlotJobs.add).
      timestamp: q.createdAt,
      delay: Math.max(0, at - q.createdAt),
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: true,
      removeOnFail: { age: retentionSec },
    },
  }));
  await queue.addBulk(jobs);
}

export async function removeReminders(queue: Queue, questionId: string, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, (_, n) => queue.remove(reminderJobId(questionId, n))));
}

/**
 * How long a reminder that came due before its question's card was out waits before looking again, in ms (a
 * second): the card's post may wait on Slack's pacing or a Retry-After, so the reminder follows the card within
 * a second of it, never ahead of it (it is posted in the card's thread).
 */
const REMINDER_CARD_WAIT_MS = 1_000;

/**
 * The job processor: calls onReminder only while the question is still pending and its card is out. Before the
 * card, the job is put back for REMINDER_CARD_WAIT_MS (DelayedError tells BullMQ so), again until the card is
 * out (then it is sent at once) or the question ended (then it is dropped): the question always ends, by its
 * deadline's timeout at the latest. Once the deadline has passed (Redis TIME, the deadline's clock) it is dropped
 * too: a nudge to answer a question that is expiring then would only be contradicted by its end.
 */
export function reminderHandler(
  cmd: RedisClient,
  k: Keys,
  onReminder: (questionId: string, at: number) => Promise<void>,
) {
  return async (job: Job<JobData>, token?: string): Promise<void> => {
    const { id, at } = job.data;
    if (id === undefined || at === undefined) return;
    const [[state, cardTs, deadline], [sec, micro]] = await Promise.all([
      cmd.hmget(k.question(id), 'state', 'cardTs', 'deadline'),
      cmd.time(),
    ]);
    // Epoch ms on Redis's clock, which dated the deadline (transitions.ts's redisNow; not imported: it imports us).
    const now = Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
    if (state !== 'pending' || (deadline !== null && now >= Number(deadline))) return;
    if (cardTs === null) {
      await job.moveToDelayed(Date.now() + REMINDER_CARD_WAIT_MS, token);
      throw new DelayedError();
    }
    await onReminder(id, at);
  };
}
