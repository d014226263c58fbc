// Each person's UI language, from their Slack locale (users.info with include_locale), cached per user.
import type { webApi } from '@slack/bolt';
import { localeOf, type Locale } from '../../blocks/index.js';

/** How long a looked-up locale is trusted, in ms. Default 1 hour. */
const LOCALE_TTL_MS = 3_600_000;

export class Locales {
  private readonly cache = new Map<string, { locale: Locale; until: number }>();

  constructor(
    private readonly client: webApi.WebClient,
    private readonly now: () => number = Date.now,
  ) {}

  async of(userId: string): Promise<Locale> {
    const cached = this.cache.get(userId);
    if (cached && cached.until > this.now()) return cached.locale;
    const info = await this.client.users.info({ user: userId, include_locale: true });
    const locale = localeOf(info.user?.locale);
    this.cache.set(userId, { locale, until: this.now() + LOCALE_TTL_MS });
    return locale;
  }
}
