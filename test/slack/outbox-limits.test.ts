// The outbox keeps to Slack's documented limits as the stand-in enforces them (rateLimits: true): posts to
// several DMs and a run of card updates all go through with no call refused, each channel's posts in the order
// sent; when something else used a channel's allowance, the refused post waits its Retry-After and lands; and
// posts that became due while no worker ran go out one by one, not all at once. Counts and orders only: no
// assertion on time.
import type { webApi } from '@slack/bolt';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { Outbox, classifySlackError, slackHandler, type OutboxJob } from '../../src/slack/outbox/index.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { quiet, standinClient } from './standin-client.js';

const BOT_TOKEN = 'xoxb-outbox-limits';

let standin: SlackStandin;
let client: webApi.WebClient;
let outbox: Outbox;

beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN, rateLimits: true });
  client = standinClient(standin, BOT_TOKEN);
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

  it('posts that all became due while no worker ran go out one by one when a worker starts, none refused', async () => {
    // One replica queues the posts (their slots one second apart) and has no worker; by the time one starts,
    // every slot has passed, so all four jobs are due at once, as after a restart or a stalled worker.
    const prefix = uniquePrefix();
    const producer = await Outbox.open({ url: redisUrl(), prefix, logger: quiet });
    const channel = standin.dmChannelOf('U7');
    const texts = ['1', '2', '3', '4'];
    const queued: Promise<void>[] = [];
    const sent = texts.map((text) => {
      let onQueued = () => undefined as void;
      queued.push(new Promise<void>((resolve) => (onQueued = resolve)));
      return producer.send(post(channel, text), onQueued);
    });
    await Promise.all(queued);
    // The channel's next free slot (epoch ms by Redis's clock, on this host): a second past the last post's.
    const redis = new Redis(redisUrl());
    const nextSlot = Number(await redis.get(keys(prefix).pace(channel)));
    redis.disconnect();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextSlot - Date.now())));
    const worker = await Outbox.open({ url: redisUrl(), prefix, logger: quiet });
    try {
      await worker.start(slackHandler(singleWorkspace(client)), classifySlackError);
      expect((await Promise.all(sent)).map((r) => r.ok)).toEqual([true, true, true, true]);
    } finally {
      await worker.close();
      await producer.close();
    }
    const calls = standin.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === channel);
    expect(calls.map((c) => [c.args.text, c.error ?? 'ok'])).toEqual(texts.map((text) => [text, 'ok']));
  });
});
