// A Web API call made again after a 429 or a passing failure (src/slack/retried.ts), on Slack's stand-in: the
// waits are recorded, not spent, and no try starts past the caller's bound (a views.open's trigger_id).
import { RespondError, type RespondFn } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { TRIGGER_RETRY_WITHIN_MS, retried, retriedRespond } from '../../src/slack/retried.js';
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

describe('a response_url post made again after a failure for now', () => {
  /** Bolt's respond as its fetch answers: each outcome in turn, a status or a thrown network failure. */
  const respondWith = (outcomes: (number | Error)[]) => {
    const posted: unknown[] = [];
    const respond: RespondFn = (message) => {
      posted.push(message);
      const outcome = outcomes.shift() ?? 200;
      if (outcome instanceof Error) return Promise.reject(outcome);
      if (outcome >= 400) return Promise.reject(new RespondError(`Failed: ${outcome}`, outcome));
      return Promise.resolve(new Response(null, { status: outcome }));
    };
    return { respond, posted };
  };

  it('posts again after a 5xx, a 429 and a network failure, backing off from 1 s', async () => {
    const clock = recordingClock();
    const { respond, posted } = respondWith([503, 429, new TypeError('fetch failed')]);
    await retriedRespond(respond, { text: 'Already answered.' }, clock);
    expect(posted).toHaveLength(4);
    expect(clock.waits).toEqual([1_000, 2_000, 4_000]);
  });

  it('does not post again to a response_url Slack no longer takes (4xx)', async () => {
    const clock = recordingClock();
    const { respond, posted } = respondWith([404]);
    await expect(retriedRespond(respond, { text: 'Already answered.' }, clock)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(posted).toHaveLength(1);
    expect(clock.waits).toEqual([]);
  });

  it('gives up after five tries', async () => {
    const clock = recordingClock();
    const { respond, posted } = respondWith([500, 500, 500, 500, 500]);
    await expect(retriedRespond(respond, { text: 'x' }, clock)).rejects.toBeInstanceOf(RespondError);
    // 1 + 2 + 4 + 8 s waited; the fifth failure is the last try (five in all).
    expect(clock.waits).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(posted).toHaveLength(5);
  });
});
