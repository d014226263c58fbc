// A Connect message once its sign-in completed, whichever replica posted it and whichever replica the browser's
// callback lands on: the message becomes "Connected" (chat.update) and keeps no Connect button leading to a spent
// link; no second message is posted. Each person's Connect messages for a server are found in Redis
// (src/slack/state/sign-in-prompts.ts). Two SlackSignIn replicas, each with its own Redis connection on one key
// prefix of the run's real Redis (deleted afterwards), over Slack's stand-in. And two replicas prompting the same
// person for the same server at once: one Connect message, not two.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person, SignInNeeded } from '../../src/mcp/index.js';
import { keys } from '../../src/redis/index.js';
import { Locales } from '../../src/slack/locales.js';
import { SlackSignIn } from '../../src/slack/sign-in.js';
import { RedisSignInPrompts } from '../../src/slack/state/sign-in-prompts.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { standinWithMessages } from './standin-client.js';

const TOKEN = 'xoxb-sign-in-replicas-test';
const ALICE: Person = { teamId: 'T0STANDIN', userId: 'U0ALICE' };

const slack = standinWithMessages({ botToken: TOKEN, users: { [ALICE.userId]: { name: 'alice' } } });
const prefix = uniquePrefix();
const connections: Redis[] = [];
let dm: string;

/** One replica's prompter: its own Redis connection, the shared prefix. */
function replica(): SlackSignIn {
  const redis = new Redis(redisUrl());
  connections.push(redis);
  const places = new RedisSignInPrompts(redis, keys(prefix));
  return new SlackSignIn({
    messages: slack.messages,
    locales: new Locales(slack.clients),
    dmOf: () => Promise.resolve(dm),
    places,
  });
}

beforeAll(() => {
  dm = slack.standin.dmChannelOf(ALICE.userId);
});

afterAll(async () => {
  await deleteUnder(prefix);
  await Promise.all(connections.map((redis) => redis.quit()));
});

function need(server: string, state: string, scopes = ['mcp']): SignInNeeded {
  const authorizationUrl = new URL(
    `https://auth.example/authorize?state=${state}&redirect_uri=https%3A%2F%2Fbot.example%2Foauth%2Fmcp%2Fcallback`,
  );
  return { server, person: ALICE, authorizationUrl, scopes, reason: 'first' };
}

type Block = { type: string };
const hasButton = (message: { blocks?: unknown }): boolean =>
  ((message.blocks ?? []) as Block[]).some((block) => block.type === 'actions');

describe('a Connect message whose sign-in completed on another replica', () => {
  it('becomes "Connected" without its button, and no second message is posted', async () => {
    const [posting, landing] = [replica(), replica()];
    const before = slack.standin.messagesIn(dm).length;
    await posting.prompt(need('tracker', 's1'));
    await landing.connected('tracker', ALICE);
    const messages = slack.standin.messagesIn(dm).slice(before);
    expect(messages, 'one message: the Connect message, updated in place').toHaveLength(1);
    expect(messages[0]?.text).toContain('Connected to tracker');
    expect(messages[0], 'its Connect button is gone').toSatisfy((m: { blocks?: unknown }) => !hasButton(m));
  });

  it("updates every Connect message for the server, each replica's, and none for another server", async () => {
    const [first, second, landing] = [replica(), replica(), replica()];
    const before = slack.standin.messagesIn(dm).length;
    await first.prompt(need('tracker', 's2'));
    // A wider sign-in than the first message's (a step-up): a message of its own.
    await second.prompt(need('tracker', 's3', ['mcp', 'admin']));
    await second.prompt(need('docs', 's4'));
    await landing.connected('tracker', ALICE);
    const messages = slack.standin.messagesIn(dm).slice(before);
    expect(messages.map((m) => m.text)).toEqual([
      expect.stringContaining('Connected to tracker'),
      expect.stringContaining('Connected to tracker'),
      expect.stringContaining('docs needs you to sign in'),
    ]);
    expect(messages.map(hasButton)).toEqual([false, false, true]);
  });
});

describe('two replicas prompting the same person for the same server at once', () => {
  it('post one Connect message; once it completed, the next sign-in gets its own', async () => {
    const [one, other, landing] = [replica(), replica(), replica()];
    const before = slack.standin.messagesIn(dm).length;
    await Promise.all([one.prompt(need('wiki', 's5')), other.prompt(need('wiki', 's6'))]);
    const posted = slack.standin.messagesIn(dm).slice(before);
    expect(
      posted.map((m) => m.text),
      'one Connect message, not two',
    ).toEqual([expect.stringContaining('wiki needs you to sign in')]);
    await landing.connected('wiki', ALICE);
    await other.prompt(need('wiki', 's7'));
    const after = slack.standin.messagesIn(dm).slice(before);
    expect(after.map(hasButton), 'the first "Connected", then a new Connect message').toEqual([false, true]);
  });
});
