// A workspace removes the app (app_uninstalled, tokens_revoked) while one of its questions is pending: its
// installation leaves Redis, its question ends with cancel at once (not at its timeout), and another workspace
// installed in the same deployment goes on as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import type { RecordedCall } from '../../src/standin/index.js';
import { fixtureCommand } from '../setup/compiled.js';
import { startDistributedReplicas, type DistributedReplicas } from '../support/distributed-replicas.js';
import { install, NAME_FORM } from '../support/oauth-install.js';

const OAUTH = { clientId: '3333.4444', clientSecret: 'client-secret-for-tests' };
const API_TOKEN = 'uninstall-test-api-token';
const [A, B] = ['T0LEAVING', 'T0STAYING'];

describe('a workspace removes the app', () => {
  let bot: DistributedReplicas;
  beforeAll(async () => {
    bot = await startDistributedReplicas({
      app: OAUTH,
      workspaces: [
        { teamId: A, teamDomain: 'leaving' },
        { teamId: B, teamDomain: 'staying' },
      ],
      servers: { fixture: fixtureCommand() },
      apiToken: API_TOKEN,
    });
  });
  afterAll(() => bot.close());

  /** Asks `to` in workspace `team` through the API, with a timeout far beyond the test's. */
  const askIn = async (team: string, to: string): Promise<string> => {
    const requestedSchema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const message = `Ok? (${team}, ${Math.random()})`;
    const created = await bot.api(0, 'POST', '/questions', {
      message,
      requestedSchema,
      to: { user: to },
      team,
      timeout: '10m',
    });
    if (typeof created.id !== 'string') throw new Error(`no question created: ${JSON.stringify(created)}`);
    const posted = (c: RecordedCall): boolean =>
      c.ok && c.teamId === team && JSON.stringify(c.args).includes(message);
    await bot.standin.waitForCall('chat.postMessage', posted, 15_000);
    return created.id;
  };

  it("forgets the workspace's installation and ends its pending question with cancel at once; the other goes on", async () => {
    bot.standin.oauth.setRedirectUrl(`${bot.base(0)}/slack/oauth_redirect`);
    expect(await install(bot.base(0), bot.standin, A)).toBe(200);
    expect(await install(bot.base(0), bot.standin, B)).toBe(200);
    const [leaving, staying] = [await askIn(A, 'UANN'), await askIn(B, 'UBOB')];
    const installation = (team: string): Promise<number> =>
      bot.redis.exists(keys(bot.prefix).installation('team', team));
    expect([await installation(A), await installation(B)]).toEqual([1, 1]);

    // A removes the app: Slack revokes its token, then sends both events (to another replica than the asker's).
    bot.revokeTokensOf(A);
    const longPoll = bot.api(0, 'GET', `/questions/${leaving}?wait=30`);
    const sentAt = Date.now();
    await bot.sendEvent(1, A, { type: 'app_uninstalled' });
    await bot.sendEvent(1, A, { type: 'tokens_revoked', tokens: { oauth: [], bot: [`U0BOT${A}`] } });

    const ended = await longPoll;
    expect(ended).toMatchObject({
      status: 'cancelled',
      result: { action: 'cancel' },
      reason: 'delivery_failed',
    });
    expect(Date.now() - sentAt).toBeLessThan(10_000);
    expect([await installation(A), await installation(B)]).toEqual([0, 1]);

    // B's question is still pending, and B's workspace still gets cards, posted with B's token.
    expect(await bot.api(1, 'GET', `/questions/${staying}`)).toMatchObject({ status: 'pending' });
    const command = await bot.driverFor(1, B).slashCommand({
      userId: 'UBOB',
      command: '/mcp',
      text: `run fixture ask ${JSON.stringify({ message: 'Name?', schema: NAME_FORM })}`,
    });
    expect(command.status).toBe(200);
    const card = await bot.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.teamId === B && JSON.stringify(c.args.blocks ?? '').includes('Name?'),
      15_000,
    );
    expect(card.args.channel).toBe(bot.standin.dmChannelOf('UBOB'));
  });

  it('ignores a revocation of user tokens only (the bot keeps none)', async () => {
    const question = await askIn(B, 'UBOB');
    await bot.sendEvent(0, B, { type: 'tokens_revoked', tokens: { oauth: ['UBOB'], bot: [] } });
    expect(await bot.api(1, 'GET', `/questions/${question}?wait=2`)).toMatchObject({ status: 'pending' });
    expect(await bot.redis.exists(keys(bot.prefix).installation('team', B))).toBe(1);
  });
});
