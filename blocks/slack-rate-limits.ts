// Slack's documented Web API rate limits, declared once: the outbox paces its calls by them and the Slack
// stand-in (src/standin) answers HTTP 429 `ratelimited` with Retry-After past them.
// Source: docs.slack.dev/apis/web-api/rate-limits ("per API method per workspace/team per app": Tier 1 1+/min,
// Tier 2 20+/min, Tier 3 50+/min, Tier 4 100+/min; chat.postMessage "Special": "one message per second per
// channel", "short bursts >1 allowed", "while also maintaining a workspace-wide limit" whose number is not
// documented, so nothing here paces or enforces it: a 429 for it is met by its Retry-After).
// Method tiers from each method's page: chat.update Tier 3, chat.postEphemeral Tier 4, views.open / views.push
// / views.update / views.publish Tier 4 (docs.slack.dev/reference/methods/<method>).

/** One limit as a steady rate plus a burst: at most `burst` calls at once, then one per `intervalMs`. */
export interface RateLimit {
  intervalMs: number;
  burst: number;
}

export type Tier = 1 | 2 | 3 | 4;

/** Calls per minute each tier documents as its floor ("N+ per minute"). */
export const TIER_PER_MINUTE: Record<Tier, number> = { 1: 1, 2: 20, 3: 50, 4: 100 };

/** The tier of each tiered method the bot calls at volume. */
export const METHOD_TIERS: Readonly<Record<string, Tier>> = {
  'chat.update': 3,
  'chat.postEphemeral': 4,
  'views.open': 4,
  'views.push': 4,
  'views.update': 4,
  'views.publish': 4,
};

/** chat.postMessage to one channel: one per second ("short bursts >1 allowed": a burst of 2 is tolerated). */
export const POST_PER_CHANNEL: RateLimit = { intervalMs: 1_000, burst: 2 };

/**
 * Bursts of a tier, in calls. Slack documents bursts ("sporadic bursts are welcome", "generous burst
 * behavior") but not their size; these are the sizes the stand-in tolerates.
 */
const TIER_BURST: Record<Tier, number> = { 1: 1, 2: 5, 3: 10, 4: 20 };

/** The per-workspace limit of a tiered method, or undefined for a method not in METHOD_TIERS. */
export function methodLimit(method: string): RateLimit | undefined {
  const tier = METHOD_TIERS[method];
  if (tier === undefined) return undefined;
  return { intervalMs: 60_000 / TIER_PER_MINUTE[tier], burst: TIER_BURST[tier] };
}
