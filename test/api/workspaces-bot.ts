// A bot's Automations API and POST /mcp as startApi builds them from the config (with a file naming servers
// `tracker`, which people sign in to, and `deploy`, a gateway), the real sign-in vault on real Redis, and
// recorded stand-ins for the relay, the Slack side and the tool runs: for test/api/workspaces and
// test/api/gateway-workspaces.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach } from 'vitest';
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
export const SEVERAL = {
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'client-secret-for-tests',
  SLACK_STATE_SECRET: 'state-secret-of-sixteen-plus',
};
export const ONE = { SLACK_BOT_TOKEN: 'xoxb-one-workspace' };

export interface Bot {
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
/** Stops the bots a test started, and deletes their keys, after each test. */
export function stopBotsAfterEach(): void {
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
    for (const lifecycle of parts.splice(0)) await lifecycle.stop();
    await Promise.all(prefixes.splice(0).map(deleteUnder));
  });
}

export async function startBot(slackEnv: Record<string, string>, apiFile?: object): Promise<Bot> {
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
    },
    answerers: { answerersTo: (to) => Promise.resolve({ users: 'user' in to ? [to.user] : [] }) },
    store: {
      get: () => Promise.resolve(undefined),
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

/** The text of a tool result's one content block. */
export function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content: unknown = result.content;
  const first: unknown = Array.isArray(content) ? content[0] : undefined;
  return isText(first) ? first.text : '';
}

const isText = (block: unknown): block is { type: 'text'; text: string } =>
  typeof block === 'object' && block !== null && 'text' in block && typeof block.text === 'string';
