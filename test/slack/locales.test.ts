// A person's UI language when a form must open on a 3 s trigger_id (Locales.within): Slack's answer when it
// comes in time, else the default language, and a lookup that comes later is kept for the next time.
import { describe, expect, it } from 'vitest';
import { Locales } from '../../src/slack/locales.js';
import { steppedClock } from '../support/stepped-clock.js';
import { standinWithMessages } from './standin-client.js';

const TOKEN = 'xoxb-locales-test';
const WITHIN_MS = 500;

describe('a person’s language within a bound', () => {
  const slack = standinWithMessages({
    botToken: TOKEN,
    users: Object.fromEntries(['U0ZH1', 'U0ZH2', 'U0ZH3'].map((id) => [id, { name: id, locale: 'zh-CN' }])),
  });

  it('is Slack’s answer when it comes in time', async () => {
    const locales = new Locales(slack.clients, steppedClock());
    expect(await locales.within('U0ZH1', undefined, WITHIN_MS)).toBe('zh-CN');
  });

  it('is the default while users.info waits out a 429, and Slack’s answer once it came', async () => {
    const clock = steppedClock();
    const locales = new Locales(slack.clients, clock);
    slack.standin.failNext('users.info', 'ratelimited', { retryAfterSec: 3 });
    const first = locales.within('U0ZH2', undefined, WITHIN_MS);
    await slack.standin.waitForCall(
      'users.info',
      (c) => c.args.user === 'U0ZH2' && c.error === 'ratelimited',
    );
    await clock.advance(WITHIN_MS);
    expect(await first).toBe('en');
    // The lookup goes on: it waits out the Retry-After (its timer set once the 429 reached the client).
    await expect.poll(() => clock.pending()).toBe(1);
    await clock.advance(3_000);
    await slack.standin.waitForCall('users.info', (c) => c.args.user === 'U0ZH2' && c.ok);
    await expect.poll(() => locales.within('U0ZH2', undefined, WITHIN_MS)).toBe('zh-CN');
  });

  it('is the default when Slack cannot say', async () => {
    const locales = new Locales(slack.clients, steppedClock());
    slack.standin.failNext('users.info', 'user_not_found');
    expect(await locales.within('U0ZH3', undefined, WITHIN_MS)).toBe('en');
  });
});
