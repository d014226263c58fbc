// /readyz is unauthenticated, on the port Slack reaches: it shows each MCP server's state and revision, never its
// last error (the server's or the network's own words, internal hosts and error bodies included), which the logs
// and `/mcp servers` carry for the people who may see them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/mcp/index.js';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

const BOT_TOKEN = 'xoxb-readyz-servers';

const SERVERS: ServerStatus[] = [
  { server: 'tracker', state: 'connected', protocolVersion: '2025-11-25', sessions: 3 },
  {
    server: 'billing',
    state: 'reconnecting',
    lastError: 'could not connect to billing: fetch failed: connect ECONNREFUSED 10.1.2.3:8443',
    lastFailure: { code: 'connect_failed', cause: 'connect ECONNREFUSED 10.1.2.3:8443' },
    nextRetryAt: 1_796_670_000_000,
  },
];

const NO_TOOLS: ToolRunner = {
  serverNames: () => SERVERS.map((s) => s.server),
  status: () => SERVERS,
  listTools: () => Promise.resolve([]),
  refusedTools: () => Promise.resolve([]),
  callTool: () => Promise.reject(new Error('no calls here')),
  warm: () => undefined,
};

describe('/readyz', () => {
  let standin: SlackStandin;
  let part: RunningSlackPart;

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    part = await startSlackPart({ standin, botToken: BOT_TOKEN, tools: NO_TOOLS, servers: () => SERVERS });
  });
  afterAll(async () => {
    await part.close();
    await standin.close();
  });

  it("shows each MCP server's state and revision, not its last error", async () => {
    const reply = await fetch(`http://127.0.0.1:${part.port}/readyz`);
    const body = (await reply.json()) as { servers: unknown };
    expect(body.servers).toEqual([
      { server: 'tracker', state: 'connected', protocolVersion: '2025-11-25' },
      { server: 'billing', state: 'reconnecting' },
    ]);
  });
});
