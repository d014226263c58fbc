// A survivor's side of durable rounds: every few seconds, claim the rounds whose claimant stopped (lease
// lapsed) or whose answers are all in but nobody claimed, and resume each: the call is sent again from the
// round's recorded answers and requestState, and its result goes to where the call came from.
import { repeatEvery } from '../repeat.js';
import type { RelayClock } from '../relay/relay.js';
import type { ResumedRound } from '../mcp/index.js';
import type { Origin } from '../relay/types.js';
import { ROUND_LEASE_MS } from './keeper.js';
import type { Round, RoundStore } from './types.js';

/** Time between take-over sweeps, ms: the question store's orphan sweep interval. */
export const TAKE_OVER_EVERY_MS = 5_000;

/** A call resumed from its round: sent by `resume` through the person's run (its result posted there). */
export interface ResumedCall {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  origin: Origin;
  resume: ResumedRound;
}

export interface TakeOverOptions {
  store: RoundStore;
  claimant: string;
  clock: RelayClock;
  resume: (call: ResumedCall) => Promise<unknown>;
  leaseMs?: number;
  everyMs?: number;
  logger: { warn(obj: object, msg: string): void };
}

/** Sweeps until the returned stop (which waits for a sweep in progress; resumed calls run on). */
export function startTakeOver(opts: TakeOverOptions): () => Promise<void> {
  const { clock, logger } = opts;
  const sweep = async (): Promise<void> => {
    const claim = { claimant: opts.claimant, now: clock.now(), leaseMs: opts.leaseMs ?? ROUND_LEASE_MS };
    // An unreadable round stays claimed until its lease lapses, then is tried again, until its record expires.
    const unreadable = (id: string, err: unknown): void =>
      logger.warn({ err, round: id }, 'round of a stopped replica cannot be read: not taken over');
    for (const round of await opts.store.takeOver(claim, unreadable)) {
      void opts.resume(resumedCall(round)).catch((err: unknown) => {
        logger.warn({ err, round: round.id }, 'taken-over round not resumed');
      });
    }
  };
  return repeatEvery(clock, opts.everyMs ?? TAKE_OVER_EVERY_MS, sweep, (err) =>
    logger.warn({ err }, 'rounds of stopped replicas not taken over'),
  );
}

/** The call a claimed round resumes: sent again with the round's recorded answers and its requestState. */
export function resumedCall(round: Round): ResumedCall {
  const { id, server, tool, args, origin, requestState, answers } = round;
  const state = requestState === undefined ? {} : { requestState };
  return { server, tool, args, origin, resume: { id, round: round.round, answers, ...state } };
}
