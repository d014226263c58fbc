// A gateway tool's call at POST /mcp for a person in a workspace of an org-wide install (Enterprise Grid) that
// never sent the bot a request: its question goes out with the org's token and keeps the org in its origin, as an
// Automations question does, so the org uninstalling the app ends it and the call gets `cancel`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { fixtureCommand } from '../setup/compiled.js';
import { startDistributedReplicas, type DistributedReplicas } from '../support/distributed-replicas.js';
import { installAs, NAME_FORM } from '../support/oauth-install.js';

const OAUTH = { clientId: '5757.8989', clientSecret: 'client-secret-for-tests' };
const API_TOKEN = 'org-gateway-test-api-token';
const ORG = 'E0GATEORG';
const [ONE, TWO] = ['T0GATEONE', 'T0GATETWO'];
const PERSON = 'W0GATE';

describe('a gateway call in a workspace of an org-wide install', () => {
  let grid: DistributedReplicas;
  let host: Client;
  beforeAll(async () => {
    grid = await startDistributedReplicas({
      app: OAUTH,
      workspaces: [ONE, TWO].map((teamId) => ({ teamId, enterpriseId: ORG })),
      servers: { gw: { ...fixtureCommand(), gateway: true } },
      apiToken: API_TOKEN,
      enterpriseId: ORG,
    });
    grid.standin.oauth.setRedirectUrl(`${grid.base(0)}/slack/oauth_redirect`);
    expect(await installAs(grid.base(0), grid.standin, { enterpriseId: ORG, userId: 'W0ADMIN' })).toBe(200);
    // An org admin added the app to both workspaces while the bot was not told (no event, no request yet).
    grid.standin.grants.grant(ORG, [ONE, TWO]);
    host = new Client({ name: 'grid-agent', version: '1.0.0' });
    const headers = { authorization: `Bearer ${API_TOKEN}` };
    const endpoint = new URL(`${grid.base(1)}/mcp`);
    await host.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
  });
  afterAll(async () => {
    await host.close();
    await grid.close();
  });

  it("keeps the org in its question's origin, so the org's uninstall ends it and the call gets cancel", async () => {
    const message = 'Rotate the org key?';
    const called = host.callTool({
      name: 'gw__ask',
      arguments: { message, schema: NAME_FORM, as: { user: PERSON, team: TWO } },
    });
    // Posted with the org's token (the stand-in records it as the org's), naming the workspace.
    await grid.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.teamId === ORG && c.args.team_id === TWO && JSON.stringify(c.args).includes(message),
      15_000,
    );
    const k = keys(grid.prefix);
    const [id = ''] = await grid.redis.zrange(k.due, '0', '-1');
    const origin: unknown = JSON.parse((await grid.redis.hget(k.question(id), 'origin')) ?? 'null');
    expect(origin).toMatchObject({ userId: PERSON, teamId: TWO, enterpriseId: ORG });

    grid.revokeTokensOf(ORG);
    expect((await grid.sendEvent(0, ONE, { type: 'app_uninstalled' })).status).toBe(200);
    const result = await called;
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ action: 'cancel' }) }]);
    expect(await grid.redis.hmget(k.question(id), 'state', 'reason')).toEqual([
      'cancelled',
      'delivery_failed',
    ]);
  });
});
