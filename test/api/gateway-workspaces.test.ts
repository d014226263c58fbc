// Gateway tools at POST /mcp (through a real MCP client) in a bot installed in several workspaces take the calls'
// `as: {user, team?}` argument: it needs its team there (a tool error naming /as/team, as ask_human's names
// /team), and the call runs with that workspace in its origin; the argument is the endpoint's, never passed on
// to the tool. The configured person (api.gateway.as) names their workspace too: tools/list lists as them there,
// never prompting anyone, and a call naming nobody runs as them. One workspace ignores a team.
import { describe, expect, it } from 'vitest';
import { ONE, SEVERAL, startBot, stopBotsAfterEach, textOf } from './workspaces-bot.js';

stopBotsAfterEach();

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
    expect(textOf(badTeam)).toBe(
      'invalid_request: /as/team: must be a workspace (team) id like T…, got "workspace-2"',
    );
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

describe('gateway tools at POST /mcp in a bot serving one workspace', () => {
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
