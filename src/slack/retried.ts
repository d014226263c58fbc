// A Web API call made with the bot's WebClient, which hands 429s back and never retries by itself (the outbox's
// setting, outbox/slack-calls.ts), for a step that must not fail on a passing refusal: made again after a 429's
// Retry-After (not counted as a failure) and after a 5xx, network or Slack-side failure with back-off from 1 s
// (five tries), within 5 min or the caller's bound. Any other failure, or the last, is thrown as it came.
import { systemClock } from '../clock.js';
import type { RelayClock } from '../relay/ports.js';
import { OUTBOX_MAX_ATTEMPTS, OUTBOX_RETRY_BASE_MS, classifySlackError } from './outbox/index.js';

/** How long a call is tried again, in ms from its first try: 5 minutes, as the outbox's calls. */
export const RETRY_WITHIN_MS = 5 * 60_000;

/**
 * `call`'s result, made again as above; no try starts later than `withinMs` after the first (default
 * RETRY_WITHIN_MS; a call on a 3 s trigger_id has less).
 */
export async function retried<T>(
  call: () => Promise<T>,
  clock: RelayClock = systemClock,
  withinMs = RETRY_WITHIN_MS,
): Promise<T> {
  const until = clock.now() + withinMs;
  for (let failures = 0; ;) {
    try {
      return await call();
    } catch (error) {
      const sorted = classifySlackError(error);
      if (sorted.retryAfterMs === undefined) failures += 1;
      const waitMs = sorted.retryAfterMs ?? OUTBOX_RETRY_BASE_MS * 2 ** (failures - 1);
      if (!sorted.retry || failures >= OUTBOX_MAX_ATTEMPTS || clock.now() + waitMs > until) throw error;
      await new Promise<void>((resolve) => clock.schedule(resolve, waitMs));
    }
  }
}

/**
 * How long a views.open is tried again after its first try, in ms: its trigger_id is good for 3 s from the
 * person's act, and some of that went before the call. A 429's Retry-After (whole seconds) of 1 s still fits.
 */
export const TRIGGER_RETRY_WITHIN_MS = 2_000;

/** `call` (a views.open) made again as retried does, while its trigger_id may still be good. */
export function retriedWithinTrigger<T>(call: () => Promise<T>, clock: RelayClock = systemClock): Promise<T> {
  return retried(call, clock, TRIGGER_RETRY_WITHIN_MS);
}
