// BullMQ job options, the question ids they are keyed by, and the timeout jobs' processor.
import { randomBytes } from 'node:crypto';
import { DelayedError, type Job } from 'bullmq';
import { NotDueError } from './errors.js';
import type { JobData } from './timers.js';
import type { Question } from '../relay/types.js';

/**
 * The timeout job comes due at the question's deadline, whenever it is added: BullMQ dates a delayed job
 * `timestamp + delay`, and `timestamp` defaults to when add() runs, which in a burst of creates can be seconds
 * after the Redis TIME the deadline was computed from (2 000 at once ended up to 7 s late, issue 15.6).
 */
export function timeoutJobOptions(q: Question, retentionSec: number) {
  return {
    jobId: q.id,
    timestamp: q.createdAt,
    delay: q.deadline - q.createdAt,
    // The handler is idempotent (finish is a CAS), so retrying a failed run is always safe.
    attempts: 5,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: true,
    removeOnFail: { age: retentionSec },
  };
}

/** 120 random bits, url-safe. BullMQ refuses job ids that are all digits, so those (~never) are redrawn. */
export function newId(): string {
  const id = randomBytes(15).toString('base64url');
  return /^\d+$/.test(id) ? newId() : id;
}

/**
 * The timeout job's processor. While onDue runs, the question is in `runningHere`, which tells finish it is
 * this job's own (see Finisher.timeoutJobHere). A finish refused as early (NotDueError: this worker's clock runs
 * ahead of Redis TIME) puts the job back for the time still left, and DelayedError tells BullMQ so.
 */
export function timeoutHandler(runningHere: Set<string>, onDue: (questionId: string) => Promise<void>) {
  return async (job: Job<JobData>, token?: string): Promise<void> => {
    // Jobs added before the id moved out of the data still carry it there.
    const id = job.data.id ?? job.id ?? '';
    runningHere.add(id);
    try {
      await onDue(id);
    } catch (err) {
      if (!(err instanceof NotDueError)) throw err;
      await job.moveToDelayed(Date.now() + err.retryAfterMs, token);
      throw new DelayedError();
    } finally {
      runningHere.delete(id);
    }
  };
}
