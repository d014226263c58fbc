// How each Connect message ends across replicas, each once: a sign-in completing on another replica while the
// message is still being posted (after Slack has it, before its place is noted) turns that very message into
// "Connected", with no separate "Connected" message and no button left; an expired link's message is marked by the
// first replica to sweep past its 10 minutes, never before and never twice; a refused link's message is its own.
// Several SlackSignIn replicas, each with its own Redis connection on one key prefix of the run's real Redis
// (deleted afterwards), over Slack's stand-in; time is each replica's injected clock.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person, SignInNeeded } from '../../src/mcp/index.js';
import { keys } from '../../src/redis/index.js';
import { Locales } from '../../src/slack/locales.js';
import type { Messages } from '../../src/slack/messages.js';
import { SlackSignIn } from '../../src/slack/sign-in.js';
import { RedisSignInPrompts } from '../../src/slack/state/sign-in-prompts.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { standinWithMessages } from './standin-client.js';

const TOKEN = 'xoxb-sign-in-outcomes-test';
const FAY: Person = { teamId: 'T0STANDIN', userId: 'U0FAY' };
/** A link's 10 minutes (STATE_TTL_SEC), in ms. */
const LINK_MS = 10 * 60_000;

const slack = standinWithMessages({ botToken: TOKEN, users: { [FAY.userId]: { name: 'fay' } } });
const prefix = uniquePrefix();
const connections: Redis[] = [];
let dm: string;
/** The replicas' clock, epoch ms. */
let now = 0;

/** One replica's prompter: its own Redis connection, the shared prefix; `messages` default the stand-in's. */
function replica(messages: Messages = slack.messages): SlackSignIn {
  const redis = new Redis(redisUrl());
  connections.push(redis);
  const places = new RedisSignInPrompts(redis, keys(prefix));
  const locales = new Locales(slack.clients);
  return new SlackSignIn({
    messages,
    locales,
    dmOf: () => Promise.resolve(dm),
    places,
    clock: { now: () => now },
  });
}

beforeAll(() => {
  dm = slack.standin.dmChannelOf(FAY.userId);
});

afterAll(async () => {
  await deleteUnder(prefix);
  await Promise.all(connections.map((redis) => redis.quit()));
});

function need(server: string, state: string): SignInNeeded {
  const authorizationUrl = new URL(
    `https://auth.example/authorize?state=${state}&redirect_uri=https%3A%2F%2Fbot.example%2Foauth%2Fmcp%2Fcallback`,
  );
  return { server, person: FAY, authorizationUrl, scopes: ['mcp'], reason: 'first' };
}

type Block = { type: string };
const hasButton = (message: { blocks?: unknown }): boolean =>
  ((message.blocks ?? []) as Block[]).some((block) => block.type === 'actions');
const newMessages = (before: number) => slack.standin.messagesIn(dm).slice(before);

/** The stand-in's messages, with `meanwhile` run once a post has reached Slack, before the poster hears back. */
function postedThen(meanwhile: () => Promise<void>): Messages {
  return {
    post: async (place, message) => {
      const ts = await slack.messages.post(place, message);
      await meanwhile();
      return ts;
    },
    update: (place, message) => slack.messages.update(place, message),
  };
}

describe('a sign-in completing on another replica while its Connect message is being posted', () => {
  it('turns that message into "Connected" and posts no other', async () => {
    const landing = replica();
    const posting = replica(postedThen(() => landing.connected('race', FAY)));
    const before = slack.standin.messagesIn(dm).length;
    await posting.prompt(need('race', 'r1'));
    const messages = newMessages(before);
    expect(
      messages.map((m) => m.text),
      'one message: the Connect message, updated in place',
    ).toEqual([expect.stringContaining('Connected to race')]);
    expect(messages.map(hasButton), 'no Connect button left').toEqual([false]);
  });

  it('turns it into "Connected" beside the message noted before it', async () => {
    const landing = replica();
    const first = replica();
    const before = slack.standin.messagesIn(dm).length;
    await first.prompt(need('race2', 'r2'));
    // The first message's claim lapsed (a minute on): a later call posts its own.
    const later = replica(postedThen(() => landing.connected('race2', FAY)));
    await later.prompt({ ...need('race2', 'r3'), scopes: ['mcp', 'more'] });
    const messages = newMessages(before);
    expect(messages.map((m) => m.text)).toEqual([
      expect.stringContaining('Connected to race2'),
      expect.stringContaining('Connected to race2'),
    ]);
    expect(messages.map(hasButton)).toEqual([false, false]);
  });
});

describe('Connect messages whose link expired', () => {
  it('are marked by the first replica to sweep past their 10 minutes, not before and once', async () => {
    const [posting, sweeping, other] = [replica(), replica(), replica()];
    now = 1_000_000;
    const before = slack.standin.messagesIn(dm).length;
    await posting.prompt(need('expiring', 'e1'));
    now += LINK_MS - 1;
    expect(await sweeping.expire(100), 'a live link is left alone').toEqual({ taken: 0, failed: [] });
    expect(newMessages(before).map(hasButton)).toEqual([true]);
    now += 1;
    expect(await sweeping.expire(100), 'marked at its expiry').toEqual({ taken: 1, failed: [] });
    expect(await other.expire(100), 'and by no other replica').toEqual({ taken: 0, failed: [] });
    const [expired] = newMessages(before);
    expect(expired?.text).toContain('This link to connect expiring expired');
    expect(expired?.text).toContain('`/mcp connect expiring`');
    expect(expired).toMatchObject({ updates: 1 });
    expect(hasButton(expired ?? {})).toBe(false);
  });

  it('leave a message whose link was refused or connected meanwhile as that says', async () => {
    const [posting, landing, sweeping] = [replica(), replica(), replica()];
    const before = slack.standin.messagesIn(dm).length;
    await posting.prompt(need('refusing', 'f1'));
    await posting.prompt(need('connecting', 'c1'));
    await landing.refused('refusing', FAY, 'f1', 'denied');
    await landing.connected('connecting', FAY);
    now += LINK_MS;
    expect(await sweeping.expire(100)).toEqual({ taken: 0, failed: [] });
    const messages = newMessages(before);
    expect(messages.map((m) => m.text)).toEqual([
      expect.stringContaining('Access to refusing was not granted'),
      expect.stringContaining('Connected to connecting'),
    ]);
    expect(messages.map((m) => m.updates)).toEqual([1, 1]);
  });
});

describe('a refused link', () => {
  it("updates only that link's message, once", async () => {
    const [posting, landing] = [replica(), replica()];
    const before = slack.standin.messagesIn(dm).length;
    await posting.prompt(need('two', 't1'));
    await posting.prompt({ ...need('two', 't2'), scopes: ['mcp', 'more'] });
    await landing.refused('two', FAY, 't2', 'failed');
    await landing.refused('two', FAY, 't2', 'failed');
    const messages = newMessages(before);
    expect(messages.map(hasButton)).toEqual([true, false]);
    expect(messages[1]).toMatchObject({ updates: 1 });
    expect(messages[1]?.text).toContain('Signing in to two did not complete');
  });
});
