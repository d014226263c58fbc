// API questions and calls in a bot installed in several Slack workspaces (OAuth distribution) name the
// workspace: `as.team` on a call, `team` on a question. A call then runs with that workspace in its origin (its
// messages go out with that workspace's token) and finds the person's grant to a server they sign in to, which
// is kept per workspace and person; a call without one is refused saying what to add, and a person who has not
// connected from that workspace is told how to. A bot serving one workspace needs no `team` and ignores one.
// Gateway tools at POST /mcp (through a real MCP client) take the same `as: {user, team?}` argument: it is
// required with its team in several workspaces (a tool error naming /as/team, as ask_human's names /team), and
// the call runs with that workspace in its origin; the argument is the endpoint's, never passed on to the tool.
// In process: the API as startApi builds it from the config, with the real sign-in vault on real Redis; the
// relay, Slack side and tool run are recorded stand-ins.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type ApiDeps } from '../../src/api/index.js';
import { systemClock } from '../../src/clock.js';
import { Lifecycle } from '../../src/lifecycle.js';
import { createLogger } from '../../src/logger.js';
import { Sealer, TokenVault } from '../../src/mcp/index.js';
import type { ToolCall } from '../../src/mcp/index.js';
import type { Origin } from '../../src/relay/types.js';
import { openSignIns } from '../../src/sign-ins.js';
import { RedisConnections } from '../../src/redis/index.js';
import { loadSlackConfig } from '../support/config.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

const TOKEN = 'api-token-for-workspace-tests';
const TOKEN_KEY = Buffer.alloc(32, 5);
const SEVERAL = {
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'client-secret-for-tests',
  SLACK_STATE_SECRET: 'state-secret-of-sixteen-plus',
};
const ONE = { SLACK_BOT_TOKEN: 'xoxb-one-workspace' };

interface Bot {
  post(path: string, body: unknown): Promise<{ status: number; error?: { code: string; message: string } }>;
  /** The origins of the calls run, in order. */
  runs: Origin[];
  /** The origins of the questions opened, in order. */
  asked: Origin[];
  /** Saves tokens for `person` to `tracker`, as a completed sign-in does. */
  connect(person: { teamId: string; userId: string }): Promise<void>;
  /** An agent host connected to POST /mcp with the API token. */
  agentHost(): Promise<Client>;
  /** The gateway tool calls run, in order. */
  gatewayCalls: ToolCall[];
  /** Whom each gateway server's tools were listed as, in order. */
  listedAs: Origin[];
}

const parts: Lifecycle[] = [];
const servers: Server[] = [];
const hosts: Client[] = [];
const prefixes: string[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  for (const lifecycle of parts.splice(0)) await lifecycle.stop();
  await Promise.all(prefixes.splice(0).map(deleteUnder));
});

async function startBot(slackEnv: Record<string, string>, apiFile?: object): Promise<Bot> {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const config = loadSlackConfig({
    env: {
      ...slackEnv,
      SLACK_SIGNING_SECRET: 'signing-secret',
      REDIS_URL: redisUrl(),
      REDIS_PREFIX: prefix,
      ELICIT_RELAY_API_TOKEN: TOKEN,
      ELICIT_RELAY_TOKEN_KEY: TOKEN_KEY.toString('base64'),
      ELICIT_RELAY_PUBLIC_URL: 'https://relay.example.com',
      ELICIT_RELAY_CONFIG: 'servers.json',
    },
    readFile: () =>
      JSON.stringify({
        mcpServers: {
          tracker: { url: 'https://tracker.example.com/mcp', auth: { mode: 'oauth' } },
          deploy: { url: 'https://deploy.example.com/mcp', gateway: true },
        },
        ...(apiFile === undefined ? {} : { api: apiFile }),
      }),
  });
  const logger = createLogger('silent');
  const lifecycle = new Lifecycle();
  parts.push(lifecycle);
  const signIns = await openSignIns(config, { holderId: 'h1', logger }, lifecycle);
  const runs: Origin[] = [];
  const asked: Origin[] = [];
  const gatewayCalls: ToolCall[] = [];
  const listedAs: Origin[] = [];
  const deps: ApiDeps = {
    relay: {
      open: (question) => {
        asked.push(question.origin);
        return Promise.resolve({
          ...question,
          id: `q${asked.length}`,
          state: 'pending',
          holder: '-',
          createdAt: 0,
          deadline: 60_000,
        });
      },
      end: () => Promise.reject(new Error('not ended in these tests')),
      redeliver: () => Promise.resolve(),
    },
    answerers: { answerersTo: (to) => Promise.resolve({ users: 'user' in to ? [to.user] : [] }) },
    store: {
      get: () => Promise.resolve(undefined),
      undelivered: () => Promise.resolve([]),
      admit: () => Promise.resolve(),
    },
    checkSchema: () => undefined,
    tools: {
      listTools: (_server, person) => {
        listedAs.push(person);
        return Promise.resolve([{ name: 'ship', inputSchema: SHIP_INPUT }]);
      },
      callTool: (input) => {
        gatewayCalls.push(input);
        return Promise.resolve({ isError: false, text: 'shipped' });
      },
    },
    runTool: ({ origin }) => {
      runs.push(origin);
      return Promise.resolve({ isError: false, text: 'done' });
    },
    audit: {
      list: () => Promise.resolve({ events: [] }),
      callCreated: () => Promise.resolve(),
      callEnded: () => Promise.resolve(),
    },
    holderId: 'h1',
    clock: systemClock,
    logger,
    connected: (server, person) => signIns.connected(server, person),
  };
  const api = await startApi(config, deps, lifecycle);
  const [rest, mcp] = api.mounts;
  if (rest === undefined || mcp === undefined) throw new Error('the API is off');
  const server = createServer((req, res) =>
    (req.url?.startsWith(mcp.prefix) === true ? mcp : rest).handler(req, res),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const redis = await new RedisConnections(config.redis, logger).command('workspaces-test');
  lifecycle.push('test connection', () => void redis.disconnect());
  const vault = new TokenVault(redis, prefix, new Sealer(TOKEN_KEY));
  return {
    runs,
    asked,
    gatewayCalls,
    listedAs,
    agentHost: async () => {
      const host = new Client({ name: 'headless-agent', version: '1.0.0' });
      hosts.push(host);
      const headers = { authorization: `Bearer ${TOKEN}` };
      const url = new URL(`http://127.0.0.1:${port}${mcp.prefix}`);
      await host.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
      return host;
    },
    post: async (path, body) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const { error } = JSON.parse(await response.text()) as { error?: { code: string; message: string } };
      return { status: response.status, ...(error === undefined ? {} : { error }) };
    },
    connect: (person) =>
      vault.storage('tracker', person).save({ tokens: { access_token: 'at', token_type: 'Bearer' } }),
  };
}

/** The gateway tool's own input: an `env`, nothing named `as`. */
const SHIP_INPUT = { type: 'object' as const, properties: { env: { type: 'string' } }, required: ['env'] };

const call = (as: Record<string, string>) => ({ server: 'tracker', tool: 'whoami', as });

describe('a bot installed in several workspaces', () => {
  it("runs a call as the person of the workspace it names, with that workspace's grant", async () => {
    const bot = await startBot(SEVERAL);
    await bot.connect({ teamId: 'T1', userId: 'UANN' });
    expect((await bot.post('/calls', call({ user: 'UANN', team: 'T1' }))).status).toBe(202);
    await expect.poll(() => bot.runs).toHaveLength(1);
    expect(bot.runs[0]).toMatchObject({ userId: 'UANN', teamId: 'T1' });
  });

  it('tells a person who connected only from another workspace how to connect from this one', async () => {
    const bot = await startBot(SEVERAL);
    await bot.connect({ teamId: 'T1', userId: 'UANN' });
    const reply = await bot.post('/calls', call({ user: 'UANN', team: 'T2' }));
    expect(reply.status).toBe(409);
    expect(reply.error).toMatchObject({ code: 'not_connected' });
    expect(reply.error?.message).toContain('/mcp connect tracker');
    expect(reply.error?.message).toContain('workspace T2');
    expect(bot.runs).toEqual([]);
  });

  it('refuses a call or a question that names no workspace, saying which field to add', async () => {
    const bot = await startBot(SEVERAL);
    await bot.connect({ teamId: 'T1', userId: 'UANN' });
    const calling = await bot.post('/calls', call({ user: 'UANN' }));
    expect(calling.status).toBe(400);
    expect(calling.error?.message).toMatch(/^\/as\/team: .*several Slack workspaces/);
    const asking = await bot.post('/questions', {
      message: 'Ship?',
      requestedSchema: {},
      to: { user: 'UANN' },
    });
    expect(asking.status).toBe(400);
    expect(asking.error?.message).toMatch(/^\/team: /);
    expect(bot.runs).toEqual([]);
    expect(bot.asked).toEqual([]);
  });

  it('asks a question in the workspace it names', async () => {
    const bot = await startBot(SEVERAL);
    const body = { message: 'Ship?', requestedSchema: {}, to: { user: 'UANN' }, team: 'T1' };
    expect((await bot.post('/questions', body)).status).toBe(201);
    expect(bot.asked).toEqual([{ userId: 'default', teamId: 'T1' }]);
  });
});

describe('gateway tools at POST /mcp in a bot installed in several workspaces', () => {
  it('offer an `as` argument beside their own, and run as the person of the workspace it names', async () => {
    const bot = await startBot(SEVERAL);
    const host = await bot.agentHost();
    const { tools } = await host.listTools();
    const ship = tools.find((tool) => tool.name === 'deploy__ship');
    expect(ship?.inputSchema.properties).toMatchObject({
      env: { type: 'string' },
      as: { properties: { user: { type: 'string' }, team: { type: 'string' } }, required: ['user'] },
    });
    expect(ship?.inputSchema.required).toEqual(['env']);

    const result = await host.callTool({
      name: 'deploy__ship',
      arguments: { env: 'prod', as: { user: 'UANN', team: 'T2' } },
    });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'shipped' }] });
    expect(result.isError).not.toBe(true);
    expect(bot.gatewayCalls).toHaveLength(1);
    expect(bot.gatewayCalls[0]).toMatchObject({
      server: 'deploy',
      tool: 'ship',
      args: { env: 'prod' },
      origin: { userId: 'UANN', teamId: 'T2' },
    });
    expect(bot.gatewayCalls[0]?.args).not.toHaveProperty('as');
  });

  it('refuse a call that names no workspace with a tool error naming /as/team, and a malformed one naming its field', async () => {
    const bot = await startBot(SEVERAL);
    const host = await bot.agentHost();
    const noTeam = await host.callTool({
      name: 'deploy__ship',
      arguments: { env: 'prod', as: { user: 'UANN' } },
    });
    expect(noTeam).toMatchObject({ isError: true, content: [{ type: 'text' }] });
    expect(textOf(noTeam)).toMatch(/^invalid_request: \/as\/team: .*several Slack workspaces/);
    // Nobody named at all (and no api.gateway.as): a tool error saying how to name one.
    const nobody = await host.callTool({ name: 'deploy__ship', arguments: { env: 'prod' } });
    expect(nobody).toMatchObject({ isError: true, content: [{ type: 'text' }] });
    expect(textOf(nobody)).toContain(
      'no_person: Gateway tools need a person to ask. Name one in the `as` argument',
    );
    const badTeam = await host.callTool({
      name: 'deploy__ship',
      arguments: { env: 'prod', as: { user: 'UANN', team: 'workspace-2' } },
    });
    expect(badTeam).toMatchObject({ isError: true });
    expect(textOf(badTeam)).toMatch(/^invalid_request: \/as\/team: must match pattern/);
    expect(bot.gatewayCalls).toEqual([]);
  });

  it('are listed as the configured person in their configured workspace, without prompting, and run as them when a call names nobody', async () => {
    const bot = await startBot(SEVERAL, { gateway: { as: { user: 'UOPS', team: 'T1' } } });
    const host = await bot.agentHost();
    const { tools } = await host.listTools();
    expect(tools.map((tool) => tool.name)).toContain('deploy__ship');
    // The grant of a server people sign in to is kept per workspace: the listing names it. As an API call's,
    // its origin has a callId, so a person without a grant is not sent a Connect message and tools/list does
    // not wait for their sign-in.
    expect(bot.listedAs[0]).toEqual({ userId: 'UOPS', teamId: 'T1', callId: 'tools/list' });

    const result = await host.callTool({ name: 'deploy__ship', arguments: { env: 'prod' } });
    expect(result.isError).not.toBe(true);
    expect(bot.gatewayCalls.map((c) => c.origin)).toEqual([{ userId: 'UOPS', teamId: 'T1' }]);
    // A person named in the call brings their own workspace, never the configured one's.
    const other = await host.callTool({
      name: 'deploy__ship',
      arguments: { env: 'prod', as: { user: 'UANN' } },
    });
    expect(textOf(other)).toMatch(/^invalid_request: \/as\/team: /);
    expect(bot.gatewayCalls).toHaveLength(1);
  });

  it('answer ask_human without a workspace as they answer a gateway call without one: a tool error naming /team', async () => {
    const bot = await startBot(SEVERAL);
    const host = await bot.agentHost();
    const asking = await host.callTool({
      name: 'ask_human',
      arguments: { message: 'Ship?', requestedSchema: {}, to: { user: 'UANN' } },
    });
    expect(asking).toMatchObject({ isError: true, content: [{ type: 'text' }] });
    expect(textOf(asking)).toMatch(/^invalid_request: \/team: .*several Slack workspaces/);
    expect(asking.structuredContent).toBeUndefined();
    expect(bot.asked).toEqual([]);
  });
});

/** The text of a tool result's one content block. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content: unknown = result.content;
  const first: unknown = Array.isArray(content) ? content[0] : undefined;
  return isText(first) ? first.text : '';
}

const isText = (block: unknown): block is { type: 'text'; text: string } =>
  typeof block === 'object' && block !== null && 'text' in block && typeof block.text === 'string';

describe('a bot serving one workspace', () => {
  it("finds a person's grant without a team, and ignores one that is named", async () => {
    const bot = await startBot(ONE);
    await bot.connect({ teamId: '', userId: 'UANN' });
    expect((await bot.post('/calls', call({ user: 'UANN' }))).status).toBe(202);
    expect((await bot.post('/calls', call({ user: 'UANN', team: 'T9' }))).status).toBe(202);
    await expect.poll(() => bot.runs).toHaveLength(2);
    expect(bot.runs.map((origin) => origin.teamId)).toEqual([undefined, undefined]);
  });

  it('lists gateway tools as the configured person, without a team', async () => {
    const bot = await startBot(ONE, { gateway: { as: 'UOPS' } });
    const host = await bot.agentHost();
    await host.listTools();
    expect(bot.listedAs[0]).toEqual({ userId: 'UOPS', callId: 'tools/list' });
  });

  it('runs a gateway tool as the person its `as` names, ignoring a team', async () => {
    const bot = await startBot(ONE);
    const host = await bot.agentHost();
    const result = await host.callTool({
      name: 'deploy__ship',
      arguments: { env: 'prod', as: { user: 'UANN', team: 'T9' } },
    });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'shipped' }] });
    expect(bot.gatewayCalls.map((c) => [c.origin, c.args])).toEqual([[{ userId: 'UANN' }, { env: 'prod' }]]);
  });
});
