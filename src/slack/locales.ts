// Each person's UI language, from their Slack locale (users.info with include_locale), cached per user.
import type { webApi } from '@slack/bolt';
import { systemClock, type Clock } from '../clock.js';
import { localeOf, type Locale } from '../../blocks/index.js';
import { answerWithin } from '../settle.js';
import { retried } from './retried.js';
import { SharedLookup } from './shared-lookup.js';
import { isUserId } from './user-id.js';
import { missingScopeOf, reinstallWith } from './missing-scope.js';
import type { SlackClients } from './workspaces.js';

/** How long a looked-up locale is trusted, in ms. Default 1 hour. */
const LOCALE_TTL_MS = 3_600_000;

/**
 * How long a reply Slack times (a trigger_id's form, a view_submission's ack: 3 s) waits for the person's
 * language, in ms, before it is drawn in the default one: users.info may be waiting out a 429's Retry-After.
 */
export const LOCALE_BEFORE_REPLY_MS = 500;

/** Where a workspace whose token lacks users:read is reported (once per LOCALE_TTL_MS). */
export interface LocalesLogger {
  warn(fields: object, message: string): void;
}

export class Locales {
  private readonly cache = new Map<string, { locale: Locale; until: number }>();
  /** The lookups out: a person's questions that come together wait for one users.info. */
  private readonly looking = new SharedLookup<Locale>();
  /**
   * Workspaces' clients (one per workspace, whichever team id a caller names it by) whose token Slack refused
   * users.info for a missing scope, until when (epoch ms, LOCALE_TTL_MS on): everyone there reads the default
   * language meanwhile, without a users.info each.
   */
  private readonly unscoped = new WeakMap<webApi.WebClient, number>();

  constructor(
    private readonly clients: SlackClients,
    /** When a cached locale lapses, and the waits before asking again after a 429. Default the system clock. */
    private readonly clock: Pick<Clock, 'now' | 'schedule'> = systemClock,
    /** Told of a workspace whose token lacks users:read. Default silent. */
    private readonly logger: LocalesLogger = { warn: () => undefined },
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
      if ((this.unscoped.get(client) ?? 0) > this.clock.now()) return localeOf(undefined);
      const info = await retried(
        () => client.users.info({ user: userId, include_locale: true }),
        this.clock,
      ).catch((error: unknown) => this.unreadable(error, client, teamId));
      const locale = localeOf(info?.user?.locale);
      if (info) this.cache.set(key, { locale, until: this.clock.now() + LOCALE_TTL_MS });
      return locale;
    });
  }

  /**
   * A users.info refused for a missing scope (users:read, dropped by a reinstall): the default language, for
   * everyone in the workspace for LOCALE_TTL_MS, said once (a card must not fail over its language). Any other
   * failure is thrown as before.
   */
  private unreadable(error: unknown, client: webApi.WebClient, teamId: string | undefined): undefined {
    const scope = missingScopeOf(error);
    if (!scope) throw error;
    // Lookups already out for others in the workspace said it too: once is enough.
    if ((this.unscoped.get(client) ?? 0) > this.clock.now()) return undefined;
    this.unscoped.set(client, this.clock.now() + LOCALE_TTL_MS);
    const fields = { ...(teamId ? { teamId } : {}), needed: scope.needed };
    this.logger.warn(fields, `people's languages unknown, the default used: ${reinstallWith(scope)}`);
    return undefined;
  }
}
