// One `/mcp run` warms the person's MCP session once: the command's listener starts it as the run is asked for
// (so its handshake overlaps the claim and the "Running…" note), and the run it starts does not warm it again.
// Counted at the MCP side's `warm`, which each warm-up of the composed Slack part reaches.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import type { Origin } from '../../src/relay/types.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

const BOT_TOKEN = 'xoxb-run-warms-once';

/** A server with a tool taking arguments (`echo`) and one taking none (`ping`); every warm-up is recorded. */
function countingTools(): { tools: ToolRunner; warmed: { server: string; person: Origin }[] } {
  const warmed: { server: string; person: Origin }[] = [];
  const tools: ToolRunner = {
    serverNames: () => ['fixture'],
    status: () => [],
    listTools: () =>
      Promise.resolve([
        { name: 'echo', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } },
        { name: 'ping', inputSchema: { type: 'object' } },
      ]),
    refusedTools: () => Promise.resolve([]),
    callTool: (call) =>
      Promise.resolve({ isError: false, text: `ran ${call.tool} ${JSON.stringify(call.args)}` }),
    warm: (server, person) => void warmed.push({ server, person }),
  };
  return { tools, warmed };
}

describe('one /mcp run', () => {
  let standin: SlackStandin;
  let part: RunningSlackPart;
  let counting: ReturnType<typeof countingTools>;

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    counting = countingTools();
    part = await startSlackPart({ standin, botToken: BOT_TOKEN, tools: counting.tools });
  });
  afterAll(async () => {
    await part.close();
    await standin.close();
  });
  beforeEach(() => {
    counting.warmed.length = 0;
  });

  /** Waits for the run's result in `userId`'s DM. */
  const result = (userId: string, tool: string) =>
    standin.waitForCall(
      'chat.postMessage',
      (call) =>
        call.ok &&
        call.args.channel === standin.dmChannelOf(userId) &&
        JSON.stringify(call.args).includes(`ran ${tool}`),
      10_000,
    );

  it('with JSON arguments warms the session once', async () => {
    await part.driver.slashCommand({
      userId: 'U0WARMJSON',
      command: '/mcp',
      text: 'run fixture echo {"a":1}',
    });
    await result('U0WARMJSON', 'echo');
    expect(
      counting.warmed.map((w) => [w.server, w.person.userId]),
      'one run must warm its session once (the command warms it; the run must not warm it again)',
    ).toEqual([['fixture', 'U0WARMJSON']]);
  });

  it('of a tool without arguments (run from its form at once) warms the session once', async () => {
    await part.driver.slashCommand({ userId: 'U0WARMFORM', command: '/mcp', text: 'run fixture ping' });
    await result('U0WARMFORM', 'ping');
    expect(counting.warmed.map((w) => [w.server, w.person.userId])).toEqual([['fixture', 'U0WARMFORM']]);
  });
});
