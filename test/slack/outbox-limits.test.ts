// The outbox keeps to Slack's documented limits as the stand-in enforces them (rateLimits: true): posts to
// several DMs and a run of card updates all go through with no call refused, each channel's posts in the order
// sent; and when something else used a channel's allowance, the refused post waits its Retry-After and lands.
// Counts and orders only: no assertion on time.
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { Outbox, classifySlackError, slackHandler, type OutboxJob } from '../../src/slack/outbox/index.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

const BOT_TOKEN = 'xoxb-outbox-limits';
const quiet = { warn: () => undefined, info: () => undefined };
const silent: webApi.Logger = {
  ...quiet,
  debug: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => webApi.LogLevel.ERROR,
  setName: () => undefined,
};

let standin: SlackStandin;
let client: webApi.WebClient;
let outbox: Outbox;

beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN, rateLimits: true });
  client = new webApi.WebClient(BOT_TOKEN, {
    slackApiUrl: standin.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: silent,
  });
  outbox = await Outbox.open({ url: redisUrl(), prefix: uniquePrefix(), logger: quiet });
  await outbox.start(slackHandler(singleWorkspace(client)), classifySlackError);
});
afterEach(async () => {
  await outbox.close();
  await standin.close();
});

const post = (channel: string, text: string): OutboxJob => ({
  method: 'chat.postMessage',
  channel,
  args: { text },
});

describe('the outbox under the stand-in’s rate limits', () => {
  it('posts 4 cards to each of 3 DMs and makes 8 updates with no call refused, in order per channel', async () => {
    const channels = ['U1', 'U2', 'U3'].map((user) => standin.dmChannelOf(user));
    const texts = ['1', '2', '3', '4'];
    const posted = await Promise.all(
      channels.flatMap((channel) => texts.map((text) => outbox.send(post(channel, `${channel}-${text}`)))),
    );
    expect(posted.every((r) => r.ok)).toBe(true);
    const first = posted[0];
    const ts = first?.ok ? (first.ts ?? '') : '';
    const updates = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        outbox.send({ method: 'chat.update', channel: channels[0] ?? '', args: { ts, text: `edit ${i}` } }),
      ),
    );
    expect(updates.map((r) => r.ok)).toEqual(Array<boolean>(8).fill(true));
    expect(standin.calls.filter((c) => c.error === 'ratelimited')).toEqual([]);
    for (const channel of channels) {
      const sent = standin.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === channel);
      expect(sent.map((c) => c.args.text)).toEqual(texts.map((text) => `${channel}-${text}`));
    }
  });

  it('waits the Retry-After of a post refused because the channel’s allowance was used elsewhere, then posts it', async () => {
    const channel = standin.dmChannelOf('U9');
    for (const text of ['a', 'b']) await client.chat.postMessage({ channel, text });
    expect(await outbox.send(post(channel, 'card'))).toMatchObject({ ok: true });
    const calls = standin.calls.filter((c) => c.method === 'chat.postMessage');
    expect(calls.map((c) => [c.args.text, c.error ?? 'ok'])).toEqual([
      ['a', 'ok'],
      ['b', 'ok'],
      ['card', 'ratelimited'],
      ['card', 'ok'],
    ]);
  });
});
