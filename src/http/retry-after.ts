// A Retry-After header (RFC 9110 10.2.3) read once for every client that honours one: the CLI asking the bot,
// webhook deliveries asking a receiver. Each caps the wait as its own retries need.

/**
 * A Retry-After header as ms from `now`: delay-seconds, or an HTTP-date (IMF fixdate, which ends in "GMT"; a date
 * already past is 0). Undefined when absent or neither (the caller's own backoff decides then).
 */
export function retryAfterMs(header: string | null | undefined, now: number): number | undefined {
  const value = header?.trim() ?? '';
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1_000;
  else if (value.endsWith('GMT')) ms = Date.parse(value) - now;
  else return undefined;
  return Number.isNaN(ms) ? undefined : Math.max(ms, 0);
}
