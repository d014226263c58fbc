// What a person sees when `/mcp connect <server>` cannot make a Connect link, here because the server (and so
// its authorization server's discovery) is unreachable: a private reply naming the server and the problem. The
// `/mcp` listener is driven with Slack's command arguments (its `respond` recorded); the MCP side is the real
// VaultConnections over the vault in real Redis under this file's own prefix (deleted afterwards).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RespondArguments, SlashCommand } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VaultConnections } from '../../src/mcp/index.js';
import { mcpCommand } from '../../src/slack/listeners/commands/mcp.js';
import type { CommandDeps } from '../../src/slack/listeners/deps.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { uniquePrefix } from '../setup/context.js';
import { SERVER, startWakes, testGrants, testVault, type WakesOnRedis } from '../mcp/auth/support.js';

let prefix: string;
let onRedis: WakesOnRedis;
let connections: VaultConnections;
let unreachable: string;

beforeAll(async () => {
  // A port nothing listens on any more: the MCP server (and its authorization server) is down.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  unreachable = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/mcp`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  prefix = uniquePrefix();
  onRedis = await startWakes(prefix);
  const vault = testVault(onRedis.redis, prefix);
  const grants = testGrants(vault, [{ name: SERVER, url: unreachable }]);
  connections = new VaultConnections({ grants, vault, wakes: onRedis.wakes, now: Date.now });
});

afterAll(async () => {
  await onRedis.close();
  await deleteUnder(prefix);
});

/** `/mcp connect tracker` by a person whose Slack language is `locale`: how the listener ended, what it replied. */
async function connect(locale: string): Promise<{ outcome: string; replies: RespondArguments[] }> {
  const replies: RespondArguments[] = [];
  const command = {
    text: `connect ${SERVER}`,
    user_id: 'UANN',
    team_id: 'T1',
    api_app_id: 'A1',
    channel_id: 'D1',
    trigger_id: 'trigger-1',
  } as SlashCommand;
  const deps = {
    tools: { serverNames: () => [SERVER] },
    locales: { of: () => Promise.resolve(locale) },
    postAck: { turn: () => Promise.resolve() },
    signIn: { connections, prompter: { prompt: () => Promise.resolve() } },
  } as unknown as CommandDeps;
  const args = {
    ack: () => Promise.resolve(),
    command,
    respond: (message: RespondArguments) => {
      replies.push(message);
      return Promise.resolve({});
    },
    client: {},
  } as unknown as Parameters<typeof mcpCommand>[0];
  // Bolt only logs what a listener throws ('slack listener failed'); Slack already had its empty ack.
  const outcome = await mcpCommand(args, deps).then(
    () => 'handled',
    (error: unknown) => `threw ${(error as { code?: string }).code ?? String(error)}`,
  );
  return { outcome, replies };
}

describe('/mcp connect when no Connect link can be made', () => {
  it('answers the person privately with what went wrong, instead of nothing at all', async () => {
    const { outcome, replies } = await connect('en');
    expect(
      { outcome, replies: replies.map((r) => r.text ?? '') },
      '`/mcp connect tracker` while tracker or its authorization server is unreachable must tell the person (an ' +
        'ephemeral reply such as "could not start signing in to tracker; try again later"), not leave them with no answer',
    ).toEqual({ outcome: 'handled', replies: [expect.stringContaining(SERVER)] });
    expect(replies[0]?.response_type).toBe('ephemeral');
    expect(replies[0]?.text).toMatch(/try again/i);
  });

  it('says it in Chinese to a person whose Slack is in Chinese', async () => {
    const { outcome, replies } = await connect('zh-CN');
    expect(outcome).toBe('handled');
    expect(replies.map((r) => r.response_type)).toEqual(['ephemeral']);
    expect(replies[0]?.text).toContain('无法开始登录');
    expect(replies[0]?.text).toContain(SERVER);
  });
});
