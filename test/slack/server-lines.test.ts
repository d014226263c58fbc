// `/mcp servers`' text: src/mcp reports each server as data (state, sessions, the latest failure's code and
// causes); the Slack side words it in the person's language, only the causes shown as they came.
import { describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/mcp/index.js';
import { serversText } from '../../src/slack/server-lines.js';

const statuses: ServerStatus[] = [
  { server: 'gh', state: 'connected', sessions: 2, protocolVersion: '2025-11-25' },
  { server: 'one', state: 'connected', sessions: 1 },
  { server: 'new', state: 'idle' },
  {
    server: 'down',
    state: 'reconnecting',
    lastError: 'could not connect to down: fetch failed: connect ECONNREFUSED 127.0.0.1:9',
    lastFailure: { code: 'connect_failed', cause: 'fetch failed: connect ECONNREFUSED 127.0.0.1:9' },
    nextRetryAt: 1,
  },
  {
    server: 'gone',
    state: 'failed',
    lastError: 'connection closed unexpectedly',
    lastFailure: { code: 'connection_closed' },
  },
  { server: 'odd', state: 'failed', lastError: 'boom <b>', lastFailure: { cause: 'boom <b>' } },
];

describe('serversText', () => {
  it('words each state, the open sessions and the failure in English', () => {
    expect(serversText(statuses, 'en').split('\n')).toEqual([
      '*MCP servers*',
      ':large_green_circle: `gh` connected, MCP 2025-11-25 (2 open sessions)',
      ':large_green_circle: `one` connected (1 open session)',
      ':white_circle: `new` idle',
      ':large_yellow_circle: `down` reconnecting: could not connect: fetch failed: connect ECONNREFUSED 127.0.0.1:9',
      ':red_circle: `gone` failed: connection lost',
      ':red_circle: `odd` failed: boom &lt;b&gt;',
    ]);
  });

  it('words them in Chinese for a zh-CN person, the causes as they came', () => {
    expect(serversText(statuses, 'zh-CN').split('\n')).toEqual([
      '*MCP 服务器*',
      ':large_green_circle: `gh` 已连接, MCP 2025-11-25 (2 个会话已打开)',
      ':large_green_circle: `one` 已连接 (1 个会话已打开)',
      ':white_circle: `new` 空闲',
      ':large_yellow_circle: `down` 正在重新连接: 无法连接: fetch failed: connect ECONNREFUSED 127.0.0.1:9',
      ':red_circle: `gone` 失败: 连接中断',
      ':red_circle: `odd` 失败: boom &lt;b&gt;',
    ]);
  });

  it('says when no server is configured', () => {
    expect(serversText([], 'en')).toBe('No MCP servers are configured.');
    expect(serversText([], 'zh-CN')).toBe('没有配置任何 MCP 服务器。');
  });
});
