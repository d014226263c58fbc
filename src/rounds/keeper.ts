// This replica's side of the round store, as the MCP hub uses it (DurableRounds): claims are this replica's
// (its holder id), timed by its clock; a held claim is renewed every third of its lease while a retry is out,
// so only a replica that stopped loses it. Leases are judged by the clock of the replica taking over, so
// replicas' clocks are assumed to agree within a few seconds (as the question store's leases assume).
import type { Clock } from '../clock.js';
import type { DurableRound, DurableRounds } from '../mcp/index.js';
import type { Claim, RoundStore } from './types.js';

/** How long a claim on a round's retry holds without renewal, ms: a survivor takes over after this. */
export const ROUND_LEASE_MS = 15_000;

export interface KeeperOptions {
  store: RoundStore;
  /** This replica's holder id. */
  claimant: string;
  clock: Pick<Clock, 'now' | 'schedule'>;
  leaseMs?: number;
  logger: { warn(obj: object, msg: string): void };
}

export function roundKeeper(opts: KeeperOptions): DurableRounds {
  const { store, claimant, clock, logger } = opts;
  const leaseMs = opts.leaseMs ?? ROUND_LEASE_MS;
  const claim = (): Claim => ({ claimant, now: clock.now(), leaseMs });
  return {
    // A round that asks nothing is recorded claimed by this replica, which sends its retry at once.
    open: async (round: DurableRound) => (await store.open({ ...round, holder: claimant }, claim())).id,
    next: (id, next) => store.next(id, claim(), next),
    answered: async (id, round, key, answer) =>
      (await store.answer(id, round, key, answer, claim())) === 'claimed',
    hold: (id) => {
      let released = false;
      let cancel = (): void => undefined;
      const schedule = (): void => {
        cancel = clock.schedule(() => void renewOnce(), leaseMs / 3);
      };
      // A failed renewal (Redis away for a moment) is tried again at the next third: the claim still holds for
      // the rest of its lease, and the store only answers false once it is really gone (taken over or done).
      const renewOnce = async (): Promise<void> => {
        try {
          if (!(await store.renew(id, claim()))) return;
        } catch (err) {
          logger.warn({ err, round: id }, 'round claim not renewed; retrying');
        }
        // Released while the renewal was out: arming again would renew a claim nobody holds any more.
        if (!released) schedule();
      };
      schedule();
      return () => {
        released = true;
        cancel();
      };
    },
    finished: async (id) => {
      await store.finish(id, claimant);
    },
  };
}
