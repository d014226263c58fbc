// `/mcp servers` answers in the person's language: each server's state, its open sessions and what failed are
// worded by the Slack side (src/mcp reports them as data), only the failure's causes (the OS's or the server's
// words) shown as they are. Driven through the stand-in and real Redis.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandAnswer } from '../support/command-answers.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { redisUrl } from '../setup/context.js';
import { startHarness, type Harness } from './harness.js';

describe('/mcp servers in the person’s language', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ servers: { broken: { command: '/nonexistent/mcp-server' } } });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await deleteKeysUnder(redisUrl(), h.prefix);
  });

  const serversText = async (userId: string): Promise<string> => {
    const request = h.driver.slashCommandRequest({ userId, command: '/mcp', text: 'servers' });
    const { answer } = await commandAnswer((r) => h.driver.send(r), h.standin, request);
    return String(answer.args.text);
  };
  const lineOf = (text: string, server: string): string =>
    text.split('\n').find((line) => line.includes(`\`${server}\``)) ?? '';

  it('lists the servers to a zh-CN person without English state words', async () => {
    // A session of the person's own, so the fixture's line counts open sessions.
    const opened = JSON.stringify({ text: JSON.stringify({ opened: true }) });
    await h.driver.slashCommand({ userId: 'UZH', command: '/mcp', text: `run fixture echo ${opened}` });
    expect(await h.toolResult('UZH')).toEqual({ opened: true });
    let text = '';
    // The broken server's command fails at once, lastingly: 'failed' once its first check has run.
    await vi.waitFor(
      async () => {
        text = await serversText('UZH');
        expect(lineOf(text, 'broken')).toContain(':red_circle:');
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(text).toContain('MCP 服务器');
    const fixture = lineOf(text, 'fixture');
    expect(fixture).toContain('已连接');
    expect(fixture).toMatch(/\d+ 个会话已打开/);
    const words = /\b(connected|idle|reconnecting|failed|open sessions?|could not connect)\b/;
    expect(fixture, 'each server’s state must be in Chinese for a zh user').not.toMatch(words);
    const broken = lineOf(text, 'broken');
    expect(broken).toContain('`broken` 失败: 无法连接: ');
    // The cause is the OS's own text, shown as it is; the bot's own words are in Chinese.
    expect(broken).toContain('ENOENT');
    expect(broken).not.toMatch(words);
  });

  it('says the same in English to an English-speaking person', async () => {
    const text = await serversText('U1');
    expect(text).toContain('*MCP servers*');
    expect(lineOf(text, 'fixture')).toMatch(/`fixture` connected, MCP [\d-]+/);
    expect(lineOf(text, 'broken')).toMatch(/`broken` failed: could not connect: .*ENOENT/);
  });
});
