// The processor of a timeout job of one question (jobId = the question id, as added before
// timeouts were scheduled by deadline slot, store/slots.ts).
import { DelayedError, type Job } from 'bullmq';
import { NotDueError } from './errors.js';
import type { JobData } from './timers.js';

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
