// Each person's UI language, from their Slack locale (users.info with include_locale), cached per user.
import { systemClock, type Clock } from '../clock.js';
import { localeOf, type Locale } from '../../blocks/index.js';
import { answerWithin } from '../settle.js';
import { retried } from './retried.js';
import { SharedLookup } from './shared-lookup.js';
import { isUserId } from './user-id.js';
import type { SlackClients } from './workspaces.js';

/** How long a looked-up locale is trusted, in ms. Default 1 hour. */
const LOCALE_TTL_MS = 3_600_000;

/**
 * How long a reply Slack times (a trigger_id's form, a view_submission's ack: 3 s) waits for the person's
 * language, in ms, before it is drawn in the default one: users.info may be waiting out a 429's Retry-After.
 */
export const LOCALE_BEFORE_REPLY_MS = 500;

export class Locales {
  private readonly cache = new Map<string, { locale: Locale; until: number }>();
  /** The lookups out: a person's questions that come together wait for one users.info. */
  private readonly looking = new SharedLookup<Locale>();

  constructor(
    private readonly clients: SlackClients,
    /** When a cached locale lapses, and the waits before asking again after a 429. Default the system clock. */
    private readonly clock: Pick<Clock, 'now' | 'schedule'> = systemClock,
  ) {}

  /**
   * The person's UI language if Slack says it within `withinMs`, else (or if Slack cannot say) the default:
   * for a form that must open on a trigger_id, which lives 3 s, while users.info may wait out a 429 for
   * longer. A lookup that comes later is still cached for the next time. Never rejects.
   */
  within(userId: string, teamId: string | undefined, withinMs: number): Promise<Locale> {
    const fallback = localeOf(undefined);
    return answerWithin(
      this.of(userId, teamId).catch(() => fallback),
      withinMs,
      fallback,
      this.clock,
    );
  }

  /** The person's UI language; `teamId` is their workspace (a distributed app needs it to pick the token). */
  async of(userId: string, teamId?: string): Promise<Locale> {
    // An API question asked in a channel has a channel id where a person's id would be: no locale to read.
    if (!isUserId(userId)) return localeOf(undefined);
    const key = `${teamId ?? ''}:${userId}`;
    const cached = this.cache.get(key);
    if (cached && cached.until > this.clock.now()) return cached.locale;
    return this.looking.get(key, async () => {
      const client = await this.clients.for(teamId);
      const info = await retried(() => client.users.info({ user: userId, include_locale: true }), this.clock);
      const locale = localeOf(info.user?.locale);
      this.cache.set(key, { locale, until: this.clock.now() + LOCALE_TTL_MS });
      return locale;
    });
  }
}
