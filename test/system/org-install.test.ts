// An Enterprise Grid org installs the app org-wide (one installation for the org, `is_enterprise_install: true`):
// a person in each of two of its workspaces runs a question, which is asked with the org's token on whichever
// replica makes the call (cards, lookups, updates, App Home), and the org uninstalling ends the questions of both.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { start, type RunningRelay } from '../../src/main.js';
import { keys } from '../../src/redis/index.js';
import { SlackDriver, VERIFICATION_TOKEN, type SlackStandin } from '../../src/standin/index.js';
import { eventCallback } from '../../src/standin/payloads.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { fixtureCommand } from '../setup/compiled.js';
import {
  distributedConfig,
  installAs,
  NAME_FORM,
  startDistributedStandin,
} from '../support/oauth-install.js';
import { until } from '../support/until.js';
import { SIGNING_SECRET } from './harness.js';

const OAUTH = { clientId: '5555.6666', clientSecret: 'client-secret-for-tests' };
const ORG = 'E0GRIDORG';
const [ONE, TWO] = ['T0GRIDONE', 'T0GRIDTWO'];
/** Enterprise Grid people (W… ids), one in each workspace. */
const [ADA, BEN] = ['W0ADA', 'W0BEN'];

describe('an org-wide install (Enterprise Grid)', () => {
  let standin: SlackStandin;
  let replicas: RunningRelay[];
  let redis: Redis;
  let prefix: string;
  beforeAll(async () => {
    standin = await startDistributedStandin(OAUTH, [
      { teamId: ONE, teamDomain: 'grid-one', enterpriseId: ORG },
      { teamId: TWO, teamDomain: 'grid-two', enterpriseId: ORG },
    ]);
    prefix = uniquePrefix();
    const config = distributedConfig(standin, OAUTH, {
      prefix,
      env: { SLACK_SIGNING_SECRET: SIGNING_SECRET },
      servers: { fixture: fixtureCommand() },
    });
    replicas = [await start(config, createLogger('silent')), await start(config, createLogger('silent'))];
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    redis.disconnect();
    for (const replica of replicas) await replica.stop();
    await standin.close();
  });

  const base = (i: number): string => `http://127.0.0.1:${replicas[i]?.port ?? 0}`;
  /** Slack's requests from workspace `teamId`, delivered to replica `i` through the org's installation. */
  const driverFor = (i: number, teamId: string): SlackDriver =>
    new SlackDriver({
      eventsUrl: `${base(i)}/slack/events`,
      signingSecret: SIGNING_SECRET,
      standin,
      teamId,
      enterpriseId: ORG,
    });
  let asked = 0;
  /**
   * `/mcp run fixture ask` as `userId` in `teamId` through replica `i`; resolves with its message once its card
   * is posted.
   */
  const runQuestion = async (i: number, teamId: string, userId: string): Promise<string> => {
    asked += 1;
    const message = `Name, ${userId} (${asked})?`;
    const command = await driverFor(i, teamId).slashCommand({
      userId,
      command: '/mcp',
      text: `run fixture ask ${JSON.stringify({ message, schema: NAME_FORM })}`,
    });
    expect(command.status).toBe(200);
    const card = await standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && JSON.stringify(c.args.blocks ?? '').includes(message),
      15_000,
    );
    // Made with the org's token (the stand-in records its calls as the org's).
    expect(card.teamId).toBe(ORG);
    expect(card.args.channel).toBe(standin.dmChannelOf(userId));
    return message;
  };
  const pendingIds = (): Promise<string[]> => redis.zrange(keys(prefix).due, '0', '-1');

  it("keeps the org's one installation from the install flow, answered for the org", async () => {
    standin.oauth.setRedirectUrl(`${base(0)}/slack/oauth_redirect`);
    expect(await installAs(base(0), standin, { enterpriseId: ORG, userId: 'W0ADMIN' })).toBe(200);
    const exchange = standin.calls.find((c) => c.method === 'oauth.v2.access');
    expect(exchange).toMatchObject({ ok: true });
    expect(exchange?.teamId).toBeUndefined();
    expect(await redis.exists(keys(prefix).installation('enterprise', ORG))).toBe(1);
    expect(await redis.exists(keys(prefix).installation('team', ONE))).toBe(0);
  });

  it("asks a question from each of two of the org's workspaces with the org's token, on either replica", async () => {
    const adaAsked = await runQuestion(1, ONE, ADA);
    await runQuestion(0, TWO, BEN);
    const lookups = standin.calls.filter((c) => ['conversations.open', 'users.info'].includes(c.method));
    expect(lookups.length).toBeGreaterThan(0);
    expect(lookups.map((c) => c.teamId)).toEqual(lookups.map(() => ORG));

    // Ada declines on the other replica: the card's update and the result go out with the org's token too.
    const channel = standin.dmChannelOf(ADA);
    const [posted] = standin.messagesIn(channel);
    const decline = await driverFor(0, ONE).clickButton({
      userId: ADA,
      channel,
      ts: posted?.ts ?? '',
      actionId: 'elicit_decline',
    });
    expect(decline.status).toBe(200);
    const update = await standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === posted?.ts, 15_000);
    expect(update.teamId).toBe(ORG);
    const home = await standin.waitForCall(
      'views.publish',
      (c) => c.args.user_id === ADA && JSON.stringify(c.args.view ?? '').includes(adaAsked),
      15_000,
    );
    expect(home).toMatchObject({ ok: true, teamId: ORG });
    // Ben's question is still pending.
    expect(await pendingIds()).toHaveLength(1);
  });

  it('ends the pending questions of every workspace of the org when the org uninstalls the app', async () => {
    await runQuestion(1, ONE, ADA);
    const pending = await pendingIds();
    expect(pending).toHaveLength(2);
    // Slack revokes the org's token, then tells the app (through the org's installation, from one workspace).
    for (const [token, identity] of standin.oauth.installed) {
      if (identity.enterpriseId === ORG) standin.oauth.installed.delete(token);
    }
    const departed = await driverFor(0, ONE).send({
      json: eventCallback({
        identity: standin.identity,
        teamId: ONE,
        enterpriseId: ORG,
        token: VERIFICATION_TOKEN,
        nowMs: Date.now(),
        event: { type: 'app_uninstalled' },
      }),
    });
    expect(departed.status).toBe(200);
    const ended = (id: string): Promise<(string | null)[]> =>
      redis.hmget(keys(prefix).question(id), 'state', 'reason');
    await until('both workspaces’ questions ended', 15_000, async () => (await pendingIds()).length === 0);
    for (const id of pending) expect(await ended(id)).toEqual(['cancelled', 'delivery_failed']);
    expect(await redis.exists(keys(prefix).installation('enterprise', ORG))).toBe(0);
  });
});
