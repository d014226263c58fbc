// An org-wide install (Enterprise Grid) and its workspaces seen from the Automations API and Slack's team access
// events: a workspace that never sent the bot a request is served once its org is learnt (auth.teams.list with
// the org's token, or team_access_granted), and keeps the org in its questions' origin; an org admin removing the
// app from one workspace (team_access_revoked) ends that workspace's questions only and drops its link, and the
// org's uninstall ends the Automations questions of every workspace of the org.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { startDistributedReplicas, type DistributedReplicas } from '../support/distributed-replicas.js';
import { installAs } from '../support/oauth-install.js';
import { until } from '../support/until.js';

const OAUTH = { clientId: '5656.7878', clientSecret: 'client-secret-for-tests' };
const API_TOKEN = 'org-access-test-api-token';
const ORG = 'E0ACCESSORG';
const [ONE, TWO, THREE, FOUR] = ['T0ACCONE', 'T0ACCTWO', 'T0ACCTHREE', 'T0ACCFOUR'];
const ALL = [ONE, TWO, THREE, FOUR];

describe("an org-wide install's workspaces, granted and revoked", () => {
  let grid: DistributedReplicas;
  beforeAll(async () => {
    grid = await startDistributedReplicas({
      app: OAUTH,
      workspaces: ALL.map((teamId) => ({ teamId, enterpriseId: ORG })),
      servers: {},
      apiToken: API_TOKEN,
      enterpriseId: ORG,
    });
    grid.standin.oauth.setRedirectUrl(`${grid.base(0)}/slack/oauth_redirect`);
    expect(await installAs(grid.base(0), grid.standin, { enterpriseId: ORG, userId: 'W0ADMIN' })).toBe(200);
  });
  afterAll(() => grid.close());

  /** Asks W0PAT in workspace `team` through replica `i`; resolves with its id once its card is posted. */
  const askIn = async (i: number, team: string): Promise<string> => {
    const message = `Ok? (${team}, ${Math.random()})`;
    const created = await grid.api(i, 'POST', '/questions', {
      message,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      to: { user: 'W0PAT' },
      team,
      timeout: '10m',
    });
    if (typeof created.id !== 'string') throw new Error(`no question created: ${JSON.stringify(created)}`);
    // Posted with the org's token (the stand-in records it as the org's), naming the workspace.
    await grid.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.teamId === ORG && c.args.team_id === team && JSON.stringify(c.args).includes(message),
      15_000,
    );
    return created.id;
  };
  const originOf = async (id: string): Promise<unknown> =>
    JSON.parse((await grid.redis.hget(keys(grid.prefix).question(id), 'origin')) ?? 'null');
  const statusOf = async (id: string): Promise<unknown> =>
    (await grid.api(1, 'GET', `/questions/${id}`)).status;
  const linked = async (team: string): Promise<boolean> =>
    (await grid.redis.exists(keys(grid.prefix).workspaceOrg(team))) === 1;

  it("serves an Automations question in a workspace that never sent a request: its org is learnt from the org's auth.teams.list", async () => {
    // An org admin added the app to three workspaces while the bot was not told (no event, no request yet).
    grid.standin.grants.grant(ORG, [ONE, TWO, THREE]);
    const id = await askIn(1, THREE);
    expect(await originOf(id)).toMatchObject({ teamId: THREE, enterpriseId: ORG });
    const listed = grid.standin.calls.filter((c) => c.method === 'auth.teams.list');
    expect(listed.map((c) => [c.ok, c.teamId])).toEqual([[true, ORG]]);
    // Every workspace the org lists is linked at once, for every replica.
    expect(await Promise.all([ONE, TWO, THREE].map(linked))).toEqual([true, true, true]);
  });

  it('links a workspace as soon as team_access_granted names it, and serves it from any replica', async () => {
    expect(await linked(FOUR)).toBe(false);
    expect((await grid.driverFor(0, ONE).teamAccess('granted', [FOUR])).status).toBe(200);
    await until('the granted workspace linked', 15_000, () => linked(FOUR));
    const id = await askIn(1, FOUR);
    expect(await originOf(id)).toMatchObject({ teamId: FOUR, enterpriseId: ORG });
  });

  it("ends the revoked workspace's questions and drops its link; the org and its other workspaces go on", async () => {
    const [revoked, other] = [await askIn(0, ONE), await askIn(1, TWO)];
    // Delivered through the org's installation with ONE as the envelope's team: that is no request from ONE.
    const longPoll = grid.api(0, 'GET', `/questions/${revoked}?wait=30`);
    expect((await grid.driverFor(1, ONE).teamAccess('revoked', [ONE])).status).toBe(200);
    expect(await longPoll).toMatchObject({
      status: 'cancelled',
      result: { action: 'cancel' },
      reason: 'delivery_failed',
    });
    expect(await linked(ONE)).toBe(false);
    expect(await statusOf(other)).toBe('pending');
    expect(await grid.redis.exists(keys(grid.prefix).installation('enterprise', ORG))).toBe(1);
    await askIn(0, TWO);
  });

  it('links the workspace again when it is granted again', async () => {
    expect((await grid.driverFor(0, TWO).teamAccess('granted', [ONE])).status).toBe(200);
    await until('the workspace linked again', 15_000, () => linked(ONE));
    const id = await askIn(1, ONE);
    expect(await originOf(id)).toMatchObject({ teamId: ONE, enterpriseId: ORG });
  });

  it('ends the Automations questions of every workspace of the org when the org uninstalls the app', async () => {
    const asked = [await askIn(0, THREE), await askIn(1, FOUR)];
    const pending = await grid.redis.zrange(keys(grid.prefix).due, '0', '-1');
    expect(pending).toEqual(expect.arrayContaining(asked));
    grid.revokeTokensOf(ORG);
    const departed = await grid.sendEvent(0, TWO, { type: 'app_uninstalled' });
    expect(departed.status).toBe(200);
    await until(
      'every question of the org ended',
      15_000,
      async () => (await grid.redis.zcard(keys(grid.prefix).due)) === 0,
    );
    for (const id of pending) expect(await statusOf(id)).toBe('cancelled');
  });
});
