// Trying a Redis-backed step again while Redis is unavailable (StoreError 'redis_unavailable') or refuses it for a
// passing state ('redis_try_again': a failover's READONLY replica, CLUSTERDOWN, TRYAGAIN): a step whose effect is
// already out in Slack (a posted card, a stored end) must not be lost to a Redis blip, restart or failover.
import { relayErrorCode } from './errors.js';
import type { RelayClock } from './ports.js';

/** Waits between tries, in ms: doubling from 100 to 2,000 (the Redis reconnect back-off's cap). */
const FIRST_WAIT_MS = 100;
const MAX_WAIT_MS = 2_000;

export interface AgainOptions {
  clock: RelayClock;
  /** Epoch ms: no try is started at or after it; the last failure is thrown instead. */
  until: number;
  /** True once no more tries should start (a replica stopping). */
  stopped?: () => boolean;
  /** Hears each failure that will be tried again. */
  onRetry?: (error: unknown) => void;
}

/** The store's codes (src/redis StoreErrorCode) of a failure that passes by itself. */
const PASSING: ReadonlySet<string | undefined> = new Set(['redis_unavailable', 'redis_try_again']);

/** `attempt`'s result, tried again while it fails with PASSING; any other failure is thrown at once. */
export async function againWhileUnavailable<T>(attempt: () => Promise<T>, opts: AgainOptions): Promise<T> {
  for (let waitMs = FIRST_WAIT_MS; ; waitMs = Math.min(waitMs * 2, MAX_WAIT_MS)) {
    try {
      return await attempt();
    } catch (error) {
      const unavailable = PASSING.has(relayErrorCode(error));
      const late = opts.clock.now() + waitMs >= opts.until;
      if (!unavailable || late || opts.stopped?.() === true) throw error;
      opts.onRetry?.(error);
      await new Promise<void>((resolve) => opts.clock.schedule(resolve, waitMs));
    }
  }
}
