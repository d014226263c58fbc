// When the client asks a request again, how long it pauses and when it gives up. A bot that answers "not now"
// (429 rate_limited, 503 unavailable) is asked again after at least its Retry-After; one that does not answer,
// after a doubling pause. Creating gives up at once on a bot that never answers (a wrong URL is reported in
// seconds); waiting on a question that exists rides out an outage until the question's own deadline and more.
import { retryAfterMs as retryAfterHeaderMs } from '../http/retry-after.js';

/**
 * Longest Retry-After honoured, in ms. The bot's own is at most a minute (its rate limit counts a minute; a 503
 * says 2 s); a longer one comes from a proxy in front of it, and waiting that out whole could hold a pipeline
 * for hours after the bot is back: asked again after a minute, such a proxy says so again.
 */
export const RETRY_AFTER_CAP_MS = 60_000;
/**
 * Longest pause between tries, in ms (the pauses double from `baseMs` up to it): after a long outage the bot is
 * asked at least twice a minute, so the client learns it is back within half a minute.
 */
export const BACKOFF_CAP_MS = 30_000;
/**
 * How long creating keeps asking a bot that answers "not now" (429, 503), in ms: a rate limit's minute and a
 * Redis failover fit well within; a bot refusing for longer is reported rather than waited on without end.
 */
export const CREATE_PATIENCE_MS = 5 * 60_000;
/**
 * How long waiting keeps asking a bot that does not answer, in ms, past the question's deadline, or past the
 * outage's start when that is later or there is no deadline (a call has none). Once back, the bot ends a
 * question its timeout missed within seconds, and a rolling deploy or a Redis failover takes a few minutes.
 */
export const OUTAGE_GRACE_MS = 5 * 60_000;

export interface Patience {
  /** First pause between tries, in ms, doubled per failure up to BACKOFF_CAP_MS. */
  baseMs: number;
  /** Tries in all for a bot that does not answer (a network failure, a 5xx other than a 503 with Retry-After). */
  unanswered: number;
  /** When to stop asking again (ms since the epoch), given when this request's failures began. */
  giveUpAt: (since: number) => number;
  /** What the client says when it stops: why, given when the failures began. */
  gaveUp: (since: number) => string;
}

const minutes = (ms: number): string => `${ms / 60_000} min`;
const iso = (ms: number): string => new Date(ms).toISOString();

/** Creating: 4 tries (pauses of 0.5, 1 and 2 s) for a bot that does not answer; 5 min of "not now". */
export const CREATING: Patience = {
  baseMs: 500,
  unanswered: 4,
  giveUpAt: (since) => since + CREATE_PATIENCE_MS,
  gaveUp: () => `asked again for ${minutes(CREATE_PATIENCE_MS)}`,
};

/** Waiting on `what` (e.g. "question q1"), which exists: asked again until `deadline` and OUTAGE_GRACE_MS more. */
export function waitingOn(what: string, deadline: number | undefined): Patience {
  const grace = minutes(OUTAGE_GRACE_MS);
  return {
    baseMs: 1_000,
    unanswered: Infinity,
    giveUpAt: (since) => Math.max(since, deadline ?? since) + OUTAGE_GRACE_MS,
    gaveUp: (since) => {
      const past =
        deadline !== undefined && deadline > since
          ? `${grace} past ${what}'s deadline (${iso(deadline)})`
          : `${grace} after it stopped answering (${iso(since)})`;
      return `asked again until ${past}; the outcome of ${what} is unknown`;
    },
  };
}

/** The pause before the try after `failures` failed ones: the doubling backoff, at least the Retry-After. */
export function pauseMs(patience: Patience, failures: number, retryAfterMs: number | undefined): number {
  const backoff = Math.min(patience.baseMs * 2 ** (failures - 1), BACKOFF_CAP_MS);
  return Math.max(backoff, retryAfterMs ?? 0);
}

/** A Retry-After header's wait in ms from `now` (src/http retryAfterMs), capped at RETRY_AFTER_CAP_MS. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  const ms = retryAfterHeaderMs(header, now);
  return ms === undefined ? undefined : Math.min(ms, RETRY_AFTER_CAP_MS);
}
