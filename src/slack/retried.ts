// A Web API call made with the bot's WebClient, which hands 429s back and never retries by itself (the outbox's
// setting, outbox/slack-calls.ts), for a step that must not fail on a passing refusal: made again after a 429's
// Retry-After (not counted as a failure) and after a 5xx, network or Slack-side failure with back-off from 1 s
// (five tries), within 5 min or the caller's bound. Any other failure, or the last, is thrown as it came. A
// response_url post (Bolt's respond) is made again the same way, within 30 s.
import { RespondError, type RespondArguments, type RespondFn } from '@slack/bolt';
import { systemClock } from '../clock.js';
import type { RelayClock } from '../relay/ports.js';
import { OUTBOX_MAX_ATTEMPTS, OUTBOX_RETRY_BASE_MS, classifySlackError } from './outbox/index.js';

/** How long a call is tried again, in ms from its first try: 5 minutes, as the outbox's calls. */
export const RETRY_WITHIN_MS = 5 * 60_000;

/** Whether a failure may pass, and the wait Slack asked for (a 429's Retry-After), in ms. */
type Classify = (error: unknown) => { retry: boolean; retryAfterMs?: number };

/**
 * `call`'s result, made again as above; no try starts later than `withinMs` after the first (default
 * RETRY_WITHIN_MS; a call on a 3 s trigger_id has less).
 */
export async function retried<T>(
  call: () => Promise<T>,
  clock: RelayClock = systemClock,
  withinMs = RETRY_WITHIN_MS,
  classify: Classify = classifySlackError,
): Promise<T> {
  const until = clock.now() + withinMs;
  for (let failures = 0; ;) {
    try {
      return await call();
    } catch (error) {
      const sorted = classify(error);
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

/**
 * How long a response_url post is tried again, in ms from its first try: what it says (a click's note, a
 * command's answer, "Retrying…") is worth little later, and Slack takes 5 posts per response_url.
 */
export const RESPOND_RETRY_WITHIN_MS = 30_000;

/**
 * A response_url post made again after a 429 or 5xx (Bolt's RespondError carries the status, not Retry-After)
 * or a failure to reach Slack at all (anything else the fetch threw). A 4xx (an expired or used-up URL) is not.
 * An answer lost after Slack applied it makes the note appear twice: the lesser harm.
 */
export function retriedRespond(
  respond: RespondFn,
  message: RespondArguments,
  clock: RelayClock = systemClock,
): Promise<unknown> {
  return retried(() => respond(message), clock, RESPOND_RETRY_WITHIN_MS, classifyRespondError);
}

function classifyRespondError(error: unknown): { retry: boolean } {
  if (!(error instanceof RespondError)) return { retry: true };
  return { retry: error.statusCode === 429 || error.statusCode >= 500 };
}
