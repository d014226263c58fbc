// A workspace removes the app (app_uninstalled, tokens_revoked) while one of its questions is pending: its
// installation leaves Redis, its question ends with cancel at once (not at its timeout), and another workspace
// installed in the same deployment goes on as before.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { start, type RunningRelay } from '../../src/main.js';
import { keys } from '../../src/redis/index.js';
import {
  SlackDriver,
  VERIFICATION_TOKEN,
  type RecordedCall,
  type SlackStandin,
} from '../../src/standin/index.js';
import { eventCallback } from '../../src/standin/payloads.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { distributedConfig, install, NAME_FORM, startDistributedStandin } from '../support/oauth-install.js';
import { fixtureCommand } from '../setup/compiled.js';
import { SIGNING_SECRET } from './harness.js';

const OAUTH = { clientId: '3333.4444', clientSecret: 'client-secret-for-tests' };
const API_TOKEN = 'uninstall-test-api-token';
const [A, B] = ['T0LEAVING', 'T0STAYING'];

describe('a workspace removes the app', () => {
  let standin: SlackStandin;
  let replicas: RunningRelay[];
  let redis: Redis;
  let prefix: string;
  beforeAll(async () => {
    standin = await startDistributedStandin(OAUTH, [
      { teamId: A, teamDomain: 'leaving' },
      { teamId: B, teamDomain: 'staying' },
    ]);
    prefix = uniquePrefix();
    const config = distributedConfig(standin, OAUTH, {
      prefix,
      env: { SLACK_SIGNING_SECRET: SIGNING_SECRET, ELICIT_RELAY_API_TOKEN: API_TOKEN },
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
  const driverFor = (i: number, teamId: string): SlackDriver =>
    new SlackDriver({ eventsUrl: `${base(i)}/slack/events`, signingSecret: SIGNING_SECRET, standin, teamId });
  const api = async (
    i: number,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown>> => {
    const response = await fetch(`${base(i)}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  /** Asks `to` in workspace `team` through the API, with a timeout far beyond the test's. */
  const askIn = async (team: string, to: string): Promise<string> => {
    const requestedSchema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const message = `Ok? (${team}, ${Math.random()})`;
    const created = await api(0, 'POST', '/questions', {
      message,
      requestedSchema,
      to: { user: to },
      team,
      timeout: '10m',
    });
    if (typeof created.id !== 'string') throw new Error(`no question created: ${JSON.stringify(created)}`);
    const posted = (c: RecordedCall): boolean =>
      c.ok && c.teamId === team && JSON.stringify(c.args).includes(message);
    await standin.waitForCall('chat.postMessage', posted, 15_000);
    return created.id;
  };
  /** Slack's event for workspace `teamId`, sent to replica `i`. */
  const sendEvent = (i: number, teamId: string, event: Record<string, unknown>): Promise<unknown> =>
    driverFor(i, teamId).send({
      json: eventCallback({
        identity: standin.identity,
        teamId,
        token: VERIFICATION_TOKEN,
        nowMs: Date.now(),
        event,
      }),
    });

  it("forgets the workspace's installation and ends its pending question with cancel at once; the other goes on", async () => {
    standin.oauth.setRedirectUrl(`${base(0)}/slack/oauth_redirect`);
    expect(await install(base(0), standin, A)).toBe(200);
    expect(await install(base(0), standin, B)).toBe(200);
    const [leaving, staying] = [await askIn(A, 'UANN'), await askIn(B, 'UBOB')];
    const installation = (team: string): Promise<number> =>
      redis.exists(keys(prefix).installation('team', team));
    expect([await installation(A), await installation(B)]).toEqual([1, 1]);

    // A removes the app: Slack revokes its token, then sends both events (to another replica than the asker's).
    const tokenOfA = [...standin.oauth.installed].find(([, identity]) => identity.teamId === A)?.[0] ?? '';
    standin.oauth.installed.delete(tokenOfA);
    const longPoll = api(0, 'GET', `/questions/${leaving}?wait=30`);
    const sentAt = Date.now();
    await sendEvent(1, A, { type: 'app_uninstalled' });
    await sendEvent(1, A, { type: 'tokens_revoked', tokens: { oauth: [], bot: [`U0BOT${A}`] } });

    const ended = await longPoll;
    expect(ended).toMatchObject({
      status: 'cancelled',
      result: { action: 'cancel' },
      reason: 'delivery_failed',
    });
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    expect([await installation(A), await installation(B)]).toEqual([0, 1]);

    // B's question is still pending, and B's workspace still gets cards, posted with B's token.
    expect(await api(1, 'GET', `/questions/${staying}`)).toMatchObject({ status: 'pending' });
    const command = await driverFor(1, B).slashCommand({
      userId: 'UBOB',
      command: '/mcp',
      text: `run fixture ask ${JSON.stringify({ message: 'Name?', schema: NAME_FORM })}`,
    });
    expect(command.status).toBe(200);
    const card = await standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.teamId === B && JSON.stringify(c.args.blocks ?? '').includes('Name?'),
      15_000,
    );
    expect(card.args.channel).toBe(standin.dmChannelOf('UBOB'));
  });

  it('ignores a revocation of user tokens only (the bot keeps none)', async () => {
    const question = await askIn(B, 'UBOB');
    await sendEvent(0, B, { type: 'tokens_revoked', tokens: { oauth: ['UBOB'], bot: [] } });
    expect(await api(1, 'GET', `/questions/${question}?wait=2`)).toMatchObject({ status: 'pending' });
    expect(await redis.exists(keys(prefix).installation('team', B))).toBe(1);
  });
});
