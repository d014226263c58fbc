// Slack's documented rate limits (blocks/slack-rate-limits.ts), enforced as Slack does: a call past them is
// answered HTTP 429 `ratelimited` with Retry-After in whole seconds, and does not count. Each limit is a
// generic cell rate (GCRA): a call conforms when it arrives no earlier than the limit's theoretical arrival
// time less the burst's allowance; a conforming call moves that time on by one interval.
import { POST_PER_CHANNEL, methodLimit, type RateLimit } from '../../blocks/slack-rate-limits.js';
import type { Obj } from './blockkit-check.js';

export class RateLimits {
  /** Theoretical arrival time per limit key, epoch ms. */
  private readonly due = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Seconds the caller must wait when `method` is past a limit of workspace `teamId`; else undefined (counted). */
  admit(teamId: string, method: string, args: Obj): number | undefined {
    const now = this.now();
    const cells = limitsOf(teamId, method, args);
    let waitMs = 0;
    for (const { key, limit } of cells) {
      const due = Math.max(now, this.due.get(key) ?? now);
      waitMs = Math.max(waitMs, due - (limit.burst - 1) * limit.intervalMs - now);
    }
    if (waitMs > 0) return Math.ceil(waitMs / 1000);
    for (const { key, limit } of cells) {
      this.due.set(key, Math.max(now, this.due.get(key) ?? now) + limit.intervalMs);
    }
    return undefined;
  }
}

/** The limits a call counts against: its method's per-workspace tier, and chat.postMessage's channel. */
function limitsOf(teamId: string, method: string, args: Obj): { key: string; limit: RateLimit }[] {
  const tiered = methodLimit(method);
  const cells = tiered ? [{ key: `${teamId} ${method}`, limit: tiered }] : [];
  if (method === 'chat.postMessage' && typeof args.channel === 'string') {
    cells.push({ key: `${teamId} ${method} ${args.channel}`, limit: POST_PER_CHANNEL });
  }
  return cells;
}
