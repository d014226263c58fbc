// BullMQ job options and small timing helpers shared by the store's workers.
import { randomBytes } from 'node:crypto';
import type { Question } from '../relay/types.js';

/** Waits for the promises to settle, or for `ms`, whichever comes first; true when they all settled. */
export async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<boolean> {
  if (promises.length === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([Promise.allSettled(promises).then(() => true), grace]);
  clearTimeout(timer);
  return settled;
}

export function timeoutJobOptions(q: Question, retentionSec: number) {
  return {
    jobId: q.id,
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
