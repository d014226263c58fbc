// When a failed delivery is tried again: exponential backoff from `baseMs`, capped at `maxDelayMs`, with up to
// 10 % jitter so deliveries that failed together do not retry together, for at most `giveUpAfterMs`; never
// sooner than a receiver's Retry-After asked (within the same cap).

export interface RetrySettings {
  /** Wait after the first failed attempt, in ms; doubles after each. */
  baseMs: number;
  /** Longest wait between two attempts, in ms. */
  maxDelayMs: number;
  /** A delivery whose next attempt would start this long after it was queued gives up instead, in ms. */
  giveUpAfterMs: number;
}

/** 10 s, 20 s, 40 s … capped at 1 h: about 30 attempts before giving up after 24 h (PRODUCT "Webhooks"). */
export const DEFAULT_RETRY: RetrySettings = {
  baseMs: 10_000,
  maxDelayMs: 3_600_000,
  giveUpAfterMs: 86_400_000,
};

/**
 * The wait after `failures` failed attempts (1 for the first), in ms; `random` in [0, 1) adds the jitter. A wait
 * the receiver asked for (`askedMs`, its Retry-After) is the least, capped like the backoff at `maxDelayMs`.
 */
export function retryDelay(settings: RetrySettings, failures: number, random: number, askedMs = 0): number {
  const exponential = settings.baseMs * 2 ** Math.max(0, failures - 1);
  const capped = Math.min(exponential, settings.maxDelayMs);
  return Math.max(Math.round(capped * (1 + random / 10)), Math.min(askedMs, settings.maxDelayMs));
}
