// `/mcp tools` and `/mcp run` when the server's tools cannot be listed: the reason is worded in the person's
// language from the MCP side's typed error (its code), never its English message; only what the server itself
// answered (a JSON-RPC error's code) is passed on, marked as the server's, and a sign-in's code as an identifier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpClientError, SignInError } from '../../src/mcp/index.js';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

const BOT_TOKEN = 'xoxb-tools-listing-failures';
const CHINESE_READER = 'U0ZHLISTING';
const WAIT_MS = 10_000;

/** Each server's listing fails as named: a connection refused, a JSON-RPC error, a sign-in that did not happen. */
const FAILURES: Record<string, Error> = {
  down: new McpClientError('connect_failed', 'down', 'could not connect to down: ECONNREFUSED 127.0.0.1:9'),
  refusing: new McpClientError('tool_failed', 'refusing', 'tools/list on refusing failed (JSON-RPC -32601)', {
    rpcCode: -32601,
  }),
  guarded: new SignInError('sign_in_timeout', 'guarded', 'no sign-in to guarded within 600 s'),
};

function failingTools(): ToolRunner {
  return {
    serverNames: () => Object.keys(FAILURES),
    status: () => [],
    listTools: (server) => Promise.reject(FAILURES[server] ?? new Error(`no server ${server}`)),
    refusedTools: () => Promise.resolve([]),
    callTool: () => Promise.reject(new Error('not called: the listing failed')),
    warm: () => undefined,
  };
}

describe('a listing that failed, told in the person’s language', () => {
  let standin: SlackStandin;
  let part: RunningSlackPart;

  beforeAll(async () => {
    standin = await startSlackStandin({
      botToken: BOT_TOKEN,
      users: { [CHINESE_READER]: { name: 'mei', realName: 'Mei', locale: 'zh-CN' } },
    });
    part = await startSlackPart({ standin, botToken: BOT_TOKEN, tools: failingTools() });
  });
  afterAll(async () => {
    await part.close();
    await standin.close();
  });

  /** Runs `/mcp <text>` as `userId`; resolves with the private answer to it (through its response_url). */
  async function answerTo(userId: string, text: string): Promise<string> {
    const request = part.driver.slashCommandRequest({ userId, command: '/mcp', text });
    expect((await part.driver.send(request)).status).toBe(200);
    const url = 'form' in request ? request.form.response_url : undefined;
    if (url === undefined) throw new Error('a slash command carries a response_url');
    const path = new URL(url).pathname;
    const reply = await standin.waitForCall('response_url', (c) => c.args.response_url === path, WAIT_MS);
    return String(reply.args.text);
  }

  it('names the reason in English, with no English error text of the bot’s', async () => {
    expect(await answerTo('U1', 'tools down')).toBe(
      'Could not list the tools of `down`: could not connect to the server',
    );
    expect(await answerTo('U1', 'tools refusing')).toBe(
      'Could not list the tools of `refusing`: the request failed (the server’s answer: JSON-RPC error `-32601`)',
    );
    expect(await answerTo('U1', 'tools guarded')).toBe(
      'Could not list the tools of `guarded`: signing in to the server did not complete (`sign_in_timeout`)',
    );
  });

  it('names the reason in Chinese for a person whose locale is Chinese', async () => {
    expect(await answerTo(CHINESE_READER, 'tools down')).toBe('无法列出 `down` 的工具：无法连接到服务器');
    expect(await answerTo(CHINESE_READER, 'tools refusing')).toBe(
      '无法列出 `refusing` 的工具：请求失败（服务器的原始答复：JSON-RPC 错误 `-32601`）',
    );
    expect(await answerTo(CHINESE_READER, 'tools guarded')).toBe(
      '无法列出 `guarded` 的工具：服务器登录未完成（`sign_in_timeout`）',
    );
  });

  it('says the same for a run with inline arguments, which lists the tool first', async () => {
    expect(await answerTo(CHINESE_READER, 'run guarded create {"name": "ok"}')).toBe(
      '无法列出 `guarded` 的工具：服务器登录未完成（`sign_in_timeout`）',
    );
  });
});
