// How long a lost server waits before it is tried again.

export interface BackoffOptions {
  /** Delay before the first retry, in ms; default 1000. */
  initialDelayMs: number;
  /** Longest delay between two retries, in ms; default 300000 (5 minutes). */
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialDelayMs: 1000, maxDelayMs: 300_000 };

/**
 * Exponential backoff with "equal jitter": the n-th retry (n = 0, 1, …) waits between half and all of
 * min(max, initial · 2^n), so that replicas which lost a server at the same moment do not retry in step.
 */
export function backoffDelay(
  attempt: number,
  random: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.min(attempt, 52));
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}
