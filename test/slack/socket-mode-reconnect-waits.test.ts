// Socket Mode's reconnects while Slack is down or limits apps.connections.open (a Tier 1 method): README promises
// "again and again with backoff (1 s doubling to 5 min) while it cannot". @slack/socket-mode's own WebClient
// retried each apps.connections.open itself, 100 times 1.3× further apart on timers of its own (after an hour of
// 503s the next try was over 20 min away) and slept out a 429's Retry-After there: each attempt's wait must be
// the bot's backoff, on its clock, and at least the Retry-After Slack asks for
// (https://docs.slack.dev/apis/web-api/rate-limits). The Slack part runs in-process as the bot composes it.
import { beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { socketModeSetting, startThroughRetry } from './socket-mode-support.js';

const BOT_TOKEN = 'xoxb-socket-reconnect-waits';
const APP_TOKEN = 'xapp-1-socket-reconnect-waits';

describe('Socket Mode reconnects while apps.connections.open fails', { timeout: 30_000 }, () => {
  const setting = socketModeSetting({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  const { clock, opens } = setting;
  beforeAll(async () => {
    await setting.start();
  });

  /** Slack asks for a reconnect; runs the bot's timers until `connections` said hello in all. */
  async function reconnectUntil(connections: number): Promise<void> {
    setting.standin.socketMode.disconnect('refresh_requested');
    await until('the bot reconnects', 20_000, async () => {
      if (clock.pending() > 0) await clock.advance(300_000);
      return setting.standin.socketMode.connections >= connections;
    });
  }

  it('waits 1 s, then 2 s, then 4 s on its own clock while Slack answers 503, and connects', async () => {
    const from = { delays: clock.delays.length, opens: opens().length };
    setting.standin.failNext('apps.connections.open', 'service_unavailable', { status: 503 });
    setting.standin.failNext('apps.connections.open', 'service_unavailable', { status: 503 });
    await reconnectUntil(2);
    expect(opens().slice(from.opens)).toEqual([false, false, true]);
    expect(clock.delays.slice(from.delays)).toEqual([1_000, 2_000, 4_000]);
  });

  it("waits at least a 429's Retry-After on its own clock before asking again", async () => {
    const from = { delays: clock.delays.length, opens: opens().length };
    setting.standin.failNext('apps.connections.open', 'ratelimited', { retryAfterSec: 3 });
    await reconnectUntil(3);
    expect(opens().slice(from.opens)).toEqual([false, true]);
    // The first retry's backoff would be 2 s: Slack asked for 3.
    expect(clock.delays.slice(from.delays)).toEqual([1_000, 3_000]);
  });
});

describe('Socket Mode start-up while apps.connections.open is limited', { timeout: 30_000 }, () => {
  const setting = socketModeSetting({ botToken: BOT_TOKEN, appToken: APP_TOKEN });

  it("starts after a 429, asking again once its Retry-After passed on the bot's clock", async () => {
    setting.standin.failNext('apps.connections.open', 'ratelimited', { retryAfterSec: 5 });
    await startThroughRetry(setting, 5_000);
    expect(setting.clock.delays).toEqual([5_000]);
    expect(setting.standin.socketMode.connections).toBe(1);
  });
});
