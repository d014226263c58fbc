// `/mcp run <server> <tool>` without arguments opens its arguments form on the command's trigger_id with a
// loading view first (the tool's schema comes after). That view is in the person's language, as the form
// that replaces it is: a person whose Slack is in Chinese never sees an English "Loading…" first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

const BOT_TOKEN = 'xoxb-run-form-loading';
const CHINESE_READER = 'U0ZHLOADING';
const CHINESE = /[\u4e00-\u9fff]/;

/** One server with one tool taking an argument; its list answers only once `listed` is called. */
function slowTools(): { tools: ToolRunner; listed: () => void } {
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const tool = { name: 'greet', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } };
  const tools: ToolRunner = {
    serverNames: () => ['fixture'],
    status: () => [],
    listTools: async () => {
      await released;
      return [tool];
    },
    refusedTools: () => Promise.resolve([]),
    callTool: () => Promise.resolve({ isError: false, text: 'done' }),
    warm: () => undefined,
  };
  return { tools, listed: release };
}

describe("the loading view of /mcp run's arguments form", () => {
  let standin: SlackStandin;
  let part: RunningSlackPart;
  let tools: ReturnType<typeof slowTools>;

  beforeAll(async () => {
    standin = await startSlackStandin({
      botToken: BOT_TOKEN,
      users: { [CHINESE_READER]: { name: 'mei', realName: 'Mei', locale: 'zh-CN' } },
    });
    tools = slowTools();
    part = await startSlackPart({ standin, botToken: BOT_TOKEN, tools: tools.tools });
  });
  afterAll(async () => {
    tools.listed();
    await part.close();
    await standin.close();
  });

  it('is in the language of a person whose Slack is in Chinese', async () => {
    await part.driver.slashCommand({ userId: CHINESE_READER, command: '/mcp', text: 'run fixture greet' });
    const opened = await standin.waitForCall(
      'views.open',
      (call) => call.ok && JSON.stringify(call.args).includes('greet'),
      10_000,
    );
    const view = JSON.stringify(opened.args.view);
    expect(view, 'the loading view a Chinese reader sees first must be in Chinese').toMatch(CHINESE);
    expect(view).not.toMatch(/Loading|Run a tool/);
    tools.listed();
    // The form that replaces it is in Chinese as well (it was before).
    const updated = await standin.waitForCall('views.update', (call) => call.ok, 10_000);
    expect(JSON.stringify(updated.args.view)).toMatch(CHINESE);
  });
});
