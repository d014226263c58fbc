// The stand-in enforces Slack's documented rate limits when asked: chat.postMessage one per second per
// channel (a burst of 2), a tiered method per workspace (chat.update, Tier 3: 50/min, a burst of 10); past
// them HTTP 429 `ratelimited` with Retry-After in whole seconds. The clock is the stand-in's, moved by hand.
import { afterEach, describe, expect, it } from 'vitest';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, callApi } from './helpers.js';

let standin: SlackStandin | undefined;
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

async function limited(): Promise<{ s: SlackStandin; tick: (ms: number) => void }> {
  let now = 1_800_000_000_000;
  const s = await startSlackStandin({ botToken: BOT_TOKEN, rateLimits: true, clock: () => now });
  standin = s;
  return { s, tick: (ms) => (now += ms) };
}

describe('Slack rate limits in the stand-in', () => {
  it('takes two posts at once to a channel, refuses the third with Retry-After 1, and takes it a second later', async () => {
    const { s, tick } = await limited();
    const post = (channel: string) => callApi(s, 'chat.postMessage', { channel, text: 'hi' });
    expect((await post('C1')).status).toBe(200);
    expect((await post('C1')).status).toBe(200);
    const third = await post('C1');
    expect(third).toMatchObject({ status: 429, retryAfter: '1', body: { ok: false, error: 'ratelimited' } });
    expect((await post('C2')).body).toMatchObject({ ok: true });
    tick(1_000);
    expect((await post('C1')).body).toMatchObject({ ok: true });
    expect((await post('C1')).status).toBe(429);
  });

  it('takes a burst of 10 chat.update calls per workspace, then one per 1.2 s', async () => {
    const { s, tick } = await limited();
    const update = () => callApi(s, 'chat.update', { channel: 'C1', ts: '1.000001', text: 'x' });
    for (let i = 0; i < 10; i++) expect((await update()).status).toBe(200);
    expect(await update()).toMatchObject({ status: 429, retryAfter: '2' });
    tick(1_199);
    expect((await update()).status).toBe(429);
    tick(1);
    expect((await update()).status).toBe(200);
    // Posts have their own limits: the refused updates did not use them.
    expect((await callApi(s, 'chat.postMessage', { channel: 'C1', text: 'hi' })).status).toBe(200);
  });

  it('limits nothing unless asked', async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    for (let i = 0; i < 5; i++) {
      expect((await callApi(standin, 'chat.postMessage', { channel: 'C1', text: 'hi' })).status).toBe(200);
    }
  });
});
