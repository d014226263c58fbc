// A graceful stop and the durable retries this replica has out (a round's `tools/call` sent again with its
// answers, not answered yet). Closing the sessions at once would fail such a call and drop its round, though its
// answers are all in. So the hub's close first waits a while for them to answer (their results then go where
// the call came from, as always); a retry still out after that is left to a survivor: its call is never
// answered here, its round is not finished, and its claim, no longer renewed, lapses, so a survivor's take-over
// sends the retry again from the recorded answers (src/rounds/take-over.ts), as it does for a replica that died.
import { settleWithin } from '../settle.js';
import type { DurableRounds } from './types.js';

/** How long a graceful stop waits for durable retries out before closing their sessions, in ms (10 s). */
export const RETRY_GRACE_MS = 10_000;

/** The hub's round store port, which also knows the retries out and whether the hub is leaving. */
export interface LeavingRounds extends DurableRounds {
  /** True once leave() waited: a retry failing from then on failed because its session closed for the stop. */
  left(): boolean;
  /** Waits until no retry is out, at most `graceMs`. */
  leave(graceMs: number): Promise<void>;
}

export function leavingRounds(rounds: DurableRounds): LeavingRounds {
  const out = new Set<Promise<void>>();
  let left = false;
  return {
    open: (round) => rounds.open(round),
    next: (id, round) => rounds.next(id, round),
    answered: (id, round, key, answer) => rounds.answered(id, round, key, answer),
    finished: (id) => rounds.finished(id),
    hold: (id) => {
      const release = rounds.hold(id);
      let answered = (): void => undefined;
      const retry = new Promise<void>((resolve) => (answered = resolve));
      out.add(retry);
      return () => {
        release();
        out.delete(retry);
        answered();
      };
    },
    left: () => left,
    leave: async (graceMs) => {
      await settleWithin([...out], graceMs);
      left = true;
    },
  };
}
