// BullMQ job options and small timing helpers shared by the store's workers.
import { randomBytes } from 'node:crypto';
import { DelayedError, type Job } from 'bullmq';
import type { RedisClient } from '../redis/index.js';
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
 * BullMQ dates a delayed job by the producer's clock and promotes it by the worker's, so a worker whose clock
 * runs ahead would fire a timeout early. The deadline is Redis TIME, so check it there: a job that came due
 * early is put back for the time still left (measured on Redis, scheduled on this worker's clock) and BullMQ
 * is told so with DelayedError. A worker whose clock runs behind fires late by its skew.
 */
export async function deferIfEarly(
  cmd: RedisClient,
  questionKey: string,
  job: Job,
  token?: string,
): Promise<void> {
  const replies = await cmd.multi().hget(questionKey, 'deadline').time().exec();
  const deadline = Number(replies?.[0]?.[1] ?? NaN);
  const [sec, micro] = (replies?.[1]?.[1] ?? ['0', '0']) as [string, string];
  const left = deadline - (Number(sec) * 1000 + Math.floor(Number(micro) / 1000));
  if (!(left > 0)) return;
  await job.moveToDelayed(Date.now() + left, token);
  throw new DelayedError();
}
