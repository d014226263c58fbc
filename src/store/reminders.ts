// Reminder jobs: one BullMQ delayed job per reminder time, jobId `<question id>-r<n>`. The question hash keeps
// the count (field `reminders`) so the winning finish can remove them; a reminder that still comes due finds
// the question no longer pending and is skipped.
import type { Job, Queue } from 'bullmq';
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

/** The job processor: calls onReminder only while the question is still pending. */
export function reminderHandler(
  cmd: RedisClient,
  k: Keys,
  onReminder: (questionId: string, at: number) => Promise<void>,
) {
  return async (job: Job<JobData>): Promise<void> => {
    const { id, at } = job.data;
    if (id === undefined || at === undefined) return;
    if ((await cmd.hget(k.question(id), 'state')) !== 'pending') return;
    await onReminder(id, at);
  };
}
