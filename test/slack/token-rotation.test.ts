// A distributed app with Slack's token rotation on: each workspace's bot token expires 12 h after it was issued.
// Two replicas share the installations in Redis; past the expiry both post cards to both workspaces at once
// (each card: conversations.open, users.info, then chat.postMessage through the outbox). Every card goes out,
// no call meets token_expired, and each workspace's token is refreshed exactly once: the other replica waits
// for that refresh instead of spending the same refresh token, which Slack revokes once used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../src/clock.js';
import { DEFAULT_SLACK_POLICY, type ConnectedSlack } from '../../src/config/index.js';
import { createSlack, Outbox, SlackState, type Slack } from '../../src/slack/index.js';
import {
  ROTATED_TOKEN_TTL_SEC,
  startSlackStandin,
  type RecordedCall,
  type SlackStandin,
} from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { install } from '../support/oauth-install.js';
import { question } from '../support/question.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { captureLogs } from './log-capture.js';
import { NO_QUESTIONS } from './slack-part.js';

const OAUTH = {
  clientId: '1111.3333',
  clientSecret: 'rotation-secret',
  stateSecret: 'state-secret-of-sixteen-plus',
};
const TEAMS = ['T0ROTONE', 'T0ROTTWO'];
const prefix = uniquePrefix();

/** The bot's and Slack's wall clock: the system's, moved on by the test instead of waiting 12 h. */
let ahead = 0;
const clock: Clock = { ...systemClock, now: () => Date.now() + ahead };

interface Replica {
  slack: Slack;
  port: number;
  close(): Promise<void>;
}

async function startReplica(standin: SlackStandin, name: string): Promise<Replica> {
  const outbox = await Outbox.open({ url: redisUrl(), prefix });
  const state = await SlackState.open({ url: redisUrl(), prefix, holderId: name });
  const config: ConnectedSlack = {
    mode: 'http',
    signingSecret: 'rotation-signing-secret',
    auth: 'oauth',
    oauth: OAUTH,
    apiUrl: standin.apiUrl,
  };
  const slack = createSlack({
    config,
    clock,
    logger: captureLogs().logger,
    outbox,
    state,
    store: NO_QUESTIONS,
    policyOf: () => DEFAULT_SLACK_POLICY,
    serving: () => true,
    started: () => true,
    servers: () => [],
  });
  const { port } = await slack.start(0);
  const close = async (): Promise<void> => {
    await slack.stop();
    await slack.settle();
    await outbox.close();
    await state.close();
  };
  return { slack, port, close };
}

let n = 0;
/** Posts one card from `replica` to a person of `teamId`; resolves with its channel and ts. */
async function postCard(replica: Replica, teamId: string) {
  n += 1;
  const userId = `U${teamId}${n}`;
  const asked = question({
    id: `Q-rotation-${n}`,
    userId,
    origin: { userId, teamId },
    createdAt: clock.now(),
    deadline: clock.now() + 600_000,
  });
  const { cards } = await replica.slack.surface.postQuestion(asked);
  return cards;
}

describe('bot token rotation across replicas', () => {
  let standin: SlackStandin;
  let replicas: Replica[];
  beforeAll(async () => {
    standin = await startSlackStandin({
      botToken: 'xoxb-never-used-by-a-distributed-app',
      oauth: { clientId: OAUTH.clientId, clientSecret: OAUTH.clientSecret, tokenRotation: true },
      workspaces: TEAMS.map((teamId) => ({ teamId })),
      clock: () => clock.now(),
    });
    replicas = [await startReplica(standin, 'one'), await startReplica(standin, 'two')];
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await standin.close();
    await deleteUnder(prefix);
  });

  const refreshes = (): RecordedCall[] =>
    standin.calls.filter((c) => c.method === 'oauth.v2.access' && c.args.grant_type === 'refresh_token');

  it('keeps posting cards after the bot tokens expire, each workspace refreshed exactly once', async () => {
    const [one, two] = replicas;
    if (!one || !two) throw new Error('two replicas expected');
    standin.oauth.setRedirectUrl(`http://127.0.0.1:${one.port}/slack/oauth_redirect`);
    for (const teamId of TEAMS)
      expect(await install(`http://127.0.0.1:${one.port}`, standin, teamId)).toBe(200);
    const installs = standin.calls.filter((c) => c.method === 'oauth.v2.access');
    expect(installs.map((c) => c.ok)).toEqual([true, true]);
    for (const teamId of TEAMS) expect(await postCard(two, teamId)).toHaveLength(1);
    expect(refreshes()).toEqual([]);

    ahead += ROTATED_TOKEN_TTL_SEC * 1000 + 60_000;
    const since = standin.calls.length;
    const posts = replicas.flatMap((replica) =>
      TEAMS.flatMap((teamId) => [postCard(replica, teamId), postCard(replica, teamId)]),
    );
    const cards = await Promise.all(posts);
    expect(cards.map((c) => c.length)).toEqual(posts.map(() => 1));
    const after = standin.calls.slice(since);
    expect(after.filter((c) => !c.ok).map((c) => `${c.method}: ${c.error}`)).toEqual([]);
    const posted = after.filter((c) => c.method === 'chat.postMessage');
    expect(posted.map((c) => c.teamId).sort()).toEqual(TEAMS.flatMap((t) => [t, t, t, t]).sort());

    const spent = refreshes().map((c) => c.args.refresh_token);
    expect(spent).toHaveLength(TEAMS.length);
    expect(new Set(spent).size).toBe(TEAMS.length);
  });
});
