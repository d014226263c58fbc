// A Web API call made again after a 429 or a passing failure (src/slack/retried.ts), on Slack's stand-in: the
// waits are recorded, not spent, and no try starts past the caller's bound (a views.open's trigger_id).
import { describe, expect, it } from 'vitest';
import { TRIGGER_RETRY_WITHIN_MS, retried } from '../../src/slack/retried.js';
import { recordingClock } from '../support/recording-clock.js';
import { standinWithMessages } from './standin-client.js';

const TOKEN = 'xoxb-retried-test';

describe('a Slack call made again after a refusal for now', () => {
  const slack = standinWithMessages({ botToken: TOKEN });
  const authTest = async () => (await slack.clients.for(undefined)).auth.test();
  const tries = () => slack.standin.calls.filter((c) => c.method === 'auth.test').map((c) => c.error ?? 'ok');

  it('waits out a 429 that fits in the bound and resolves with the next answer', async () => {
    const clock = recordingClock();
    slack.standin.failNext('auth.test', 'ratelimited', { retryAfterSec: 1 });
    const before = tries().length;
    await expect(retried(authTest, clock, TRIGGER_RETRY_WITHIN_MS)).resolves.toMatchObject({ ok: true });
    expect(tries().slice(before)).toEqual(['ratelimited', 'ok']);
    expect(clock.waits).toEqual([1_000]);
  });

  it('throws the 429 whose Retry-After ends past the bound, without waiting for it', async () => {
    const clock = recordingClock();
    slack.standin.failNext('auth.test', 'ratelimited', { retryAfterSec: 3 });
    const before = tries().length;
    const refused = retried(authTest, clock, TRIGGER_RETRY_WITHIN_MS);
    await expect(refused).rejects.toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 3 });
    expect(tries().slice(before)).toEqual(['ratelimited']);
    expect(clock.waits).toEqual([]);
  });

  it('stops backing off once the next try would start past the bound', async () => {
    const clock = recordingClock();
    const before = tries().length;
    for (let i = 0; i < 2; i++) slack.standin.failNext('auth.test', 'internal_error', { status: 503 });
    const refused = retried(authTest, clock, 2_500);
    await expect(refused).rejects.toMatchObject({ code: 'slack_webapi_http_error', statusCode: 503 });
    // 1 s, then 2 s would start the third try 3 s after the first.
    expect(clock.waits).toEqual([1_000]);
    expect(tries().slice(before)).toEqual(['internal_error', 'internal_error']);
  });
});
