// An Enterprise Grid org installs the app org-wide (one installation for the org, `is_enterprise_install: true`):
// a person in each of two of its workspaces runs a question, which is asked with the org's token on whichever
// replica makes the call (cards, lookups, updates, App Home), and the org uninstalling ends the questions of both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { fixtureCommand } from '../setup/compiled.js';
import { startDistributedReplicas, type DistributedReplicas } from '../support/distributed-replicas.js';
import { installAs, NAME_FORM } from '../support/oauth-install.js';
import { until } from '../support/until.js';

const OAUTH = { clientId: '5555.6666', clientSecret: 'client-secret-for-tests' };
const ORG = 'E0GRIDORG';
const [ONE, TWO] = ['T0GRIDONE', 'T0GRIDTWO'];
/** Enterprise Grid people (W… ids), one in each workspace. */
const [ADA, BEN] = ['W0ADA', 'W0BEN'];

describe('an org-wide install (Enterprise Grid)', () => {
  let grid: DistributedReplicas;
  beforeAll(async () => {
    grid = await startDistributedReplicas({
      app: OAUTH,
      workspaces: [
        { teamId: ONE, teamDomain: 'grid-one', enterpriseId: ORG },
        { teamId: TWO, teamDomain: 'grid-two', enterpriseId: ORG },
      ],
      servers: { fixture: fixtureCommand() },
      enterpriseId: ORG,
    });
  });
  afterAll(() => grid.close());

  let asked = 0;
  /**
   * `/mcp run fixture ask` as `userId` in `teamId` through replica `i`; resolves with its message once its card
   * is posted.
   */
  const runQuestion = async (i: number, teamId: string, userId: string): Promise<string> => {
    asked += 1;
    const message = `Name, ${userId} (${asked})?`;
    const command = await grid.driverFor(i, teamId).slashCommand({
      userId,
      command: '/mcp',
      text: `run fixture ask ${JSON.stringify({ message, schema: NAME_FORM })}`,
    });
    expect(command.status).toBe(200);
    const card = await grid.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && JSON.stringify(c.args.blocks ?? '').includes(message),
      15_000,
    );
    // Made with the org's token (the stand-in records its calls as the org's).
    expect(card.teamId).toBe(ORG);
    expect(card.args.channel).toBe(grid.standin.dmChannelOf(userId));
    return message;
  };
  const pendingIds = (): Promise<string[]> => grid.redis.zrange(keys(grid.prefix).due, '0', '-1');

  it("keeps the org's one installation from the install flow, answered for the org", async () => {
    grid.standin.oauth.setRedirectUrl(`${grid.base(0)}/slack/oauth_redirect`);
    expect(await installAs(grid.base(0), grid.standin, { enterpriseId: ORG, userId: 'W0ADMIN' })).toBe(200);
    const exchange = grid.standin.calls.find((c) => c.method === 'oauth.v2.access');
    expect(exchange).toMatchObject({ ok: true });
    expect(exchange?.teamId).toBeUndefined();
    expect(await grid.redis.exists(keys(grid.prefix).installation('enterprise', ORG))).toBe(1);
    expect(await grid.redis.exists(keys(grid.prefix).installation('team', ONE))).toBe(0);
  });

  it("asks a question from each of two of the org's workspaces with the org's token, on either replica", async () => {
    const adaAsked = await runQuestion(1, ONE, ADA);
    await runQuestion(0, TWO, BEN);
    const lookups = grid.standin.calls.filter((c) => ['conversations.open', 'users.info'].includes(c.method));
    expect(lookups.length).toBeGreaterThan(0);
    expect(lookups.map((c) => c.teamId)).toEqual(lookups.map(() => ORG));

    // Ada declines on the other replica: the card's update and the result go out with the org's token too.
    const channel = grid.standin.dmChannelOf(ADA);
    const [posted] = grid.standin.messagesIn(channel);
    const decline = await grid.driverFor(0, ONE).clickButton({
      userId: ADA,
      channel,
      ts: posted?.ts ?? '',
      actionId: 'elicit_decline',
    });
    expect(decline.status).toBe(200);
    const update = await grid.standin.waitForCall(
      'chat.update',
      (c) => c.ok && c.args.ts === posted?.ts,
      15_000,
    );
    expect(update.teamId).toBe(ORG);
    const home = await grid.standin.waitForCall(
      'views.publish',
      (c) => c.args.user_id === ADA && JSON.stringify(c.args.view ?? '').includes(adaAsked),
      15_000,
    );
    expect(home).toMatchObject({ ok: true, teamId: ORG });
    // Ben's question is still pending.
    expect(await pendingIds()).toHaveLength(1);
  });

  it("takes a form's answer that Slack sends with no workspace (an org-wide install's view_submission)", async () => {
    const message = await runQuestion(0, TWO, BEN);
    const channel = grid.standin.dmChannelOf(BEN);
    const card = grid.standin
      .messagesIn(channel)
      .find((m) => JSON.stringify(m.blocks ?? '').includes(message));
    const driver = grid.driverFor(1, TWO);
    const opened = grid.standin.openViews(BEN).length;
    const click = await driver.clickButton({
      userId: BEN,
      channel,
      ts: card?.ts ?? '',
      actionId: 'elicit_respond',
    });
    expect(click.status).toBe(200);
    await grid.standin.waitForCall('views.open', () => grid.standin.openViews(BEN).length > opened, 15_000);
    const form = grid.standin.openViews(BEN).at(-1);
    const block = (form?.view.blocks as { type: string; block_id: string }[]).find((b) => b.type === 'input');

    // The stand-in sends it as Slack does for an org-installed app: `team: null`, the org in `enterprise`.
    const submit = await driver.submitView({
      userId: BEN,
      viewId: form?.id ?? '',
      values: { [block?.block_id ?? '']: 'Ben Grid' },
    });
    expect(submit).toMatchObject({ status: 200, body: '' });
    const update = await grid.standin.waitForCall(
      'chat.update',
      (c) => c.ok && c.args.ts === card?.ts,
      15_000,
    );
    expect(update.teamId).toBe(ORG);
    expect(JSON.stringify(update.args.blocks)).toContain('Ben Grid');
    // His first question (asked in the test before) is still pending.
    expect(await pendingIds()).toHaveLength(1);
  });

  it('ends the pending questions of every workspace of the org when the org uninstalls the app', async () => {
    await runQuestion(1, ONE, ADA);
    const pending = await pendingIds();
    expect(pending).toHaveLength(2);
    // Slack revokes the org's token, then tells the app (through the org's installation, from one workspace).
    grid.revokeTokensOf(ORG);
    const departed = await grid.sendEvent(0, ONE, { type: 'app_uninstalled' });
    expect(departed.status).toBe(200);
    const ended = (id: string): Promise<(string | null)[]> =>
      grid.redis.hmget(keys(grid.prefix).question(id), 'state', 'reason');
    await until('both workspaces’ questions ended', 15_000, async () => (await pendingIds()).length === 0);
    for (const id of pending) expect(await ended(id)).toEqual(['cancelled', 'delivery_failed']);
    expect(await grid.redis.exists(keys(grid.prefix).installation('enterprise', ORG))).toBe(0);
  });
});
