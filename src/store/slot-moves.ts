// Moving a deadline slot's job (store/slots.ts) to its marker's wake time w, and telling a move Redis refused
// because the job is active or gone (nothing to move then) from one that failed.
import { ErrorCode } from 'bullmq';
import type { RedisClient } from '../redis/index.js';
import type { StoreScripts } from './scripts.js';

/** Where followWake moves the job: a delay from now, ms. */
export type MoveJob = (delayMs: number) => Promise<void>;

/**
 * After the slot's job was put back or moved to `target` (epoch ms, Redis clock): while the marker's w (lowered
 * by a create, whose own move may have failed because the job was active, or raced this one) is before what was
 * set, moves the job to w. Each round needs a strictly lower w, so it ends.
 */
export async function followWake(
  cmd: RedisClient & StoreScripts,
  marker: string,
  gen: string,
  target: number,
  move: MoveJob,
): Promise<void> {
  for (let set = target; ;) {
    const [w, now] = (await cmd.slotWake(marker, gen)) as [string, string];
    if (w === '' || Number(w) >= set) return;
    set = Number(w);
    await move(Math.max(0, set - Number(now)));
  }
}

/** Runs a move: undefined once done or refused as the job is active or gone; the failure when Redis failed it. */
export async function tryMove(run: () => Promise<void>): Promise<{ err: unknown } | undefined> {
  try {
    await run();
    return undefined;
  } catch (err) {
    return activeOrGone(err) ? undefined : { err };
  }
}

/** changeDelay refused because the job is not delayed (active, waiting) or no longer exists. */
export const activeOrGone = (err: unknown): boolean =>
  err instanceof Error &&
  'code' in err &&
  (err.code === ErrorCode.JobNotInState || err.code === ErrorCode.JobNotExist);
