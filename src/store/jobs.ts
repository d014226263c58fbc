// Question ids, and the processor of a timeout job of one question (jobId = the question id, as added before
// timeouts were scheduled by deadline slot, store/slots.ts).
import { randomFillSync } from 'node:crypto';
import { DelayedError, type Job } from 'bullmq';
import { NotDueError } from './errors.js';
import type { JobData } from './timers.js';

/** Bytes of one id: 120 random bits, 20 base64url characters. */
const ID_BYTES = 15;
/**
 * Random bytes for the next 256 ids, drawn at once and handed out in order (never reused): one CSPRNG call per
 * 256 ids instead of one per id, which cost ~3% of a create's CPU (issue #19 goal 3).
 */
const pool = Buffer.alloc(ID_BYTES * 256);
let poolAt = pool.length;

/** 120 random bits, url-safe. BullMQ refuses job ids that are all digits, so those (~never) are redrawn. */
export function newId(): string {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const id = pool.toString('base64url', poolAt, (poolAt += ID_BYTES));
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
