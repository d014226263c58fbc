import { describe, expect, it } from 'vitest';
import { slackIssues } from './testing.js';
import { TOOLS_SHOWN_MAX, takesArguments, toolsMessage } from '../../blocks/tools.js';

const tool = (name: string, extra: object = {}) => ({ name, inputSchema: { type: 'object' }, ...extra });

describe('toolsMessage', () => {
  it('lists each tool with its title, name, description and whether it takes arguments', () => {
    const message = toolsMessage({
      server: 'gh',
      tools: [
        tool('create_issue', {
          title: 'Create issue',
          description: 'Opens an issue',
          inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
        }),
        tool('whoami'),
      ],
    });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('*Create issue* `create_issue` _(takes arguments)_\\nOpens an issue');
    expect(text).toContain('`whoami` _(no arguments)_');
    expect(slackIssues(message)).toEqual([]);
  });

  it('keeps server text inert: mentions and links are escaped, backticks cannot end the code span', () => {
    const message = toolsMessage({
      server: '<!here>',
      tools: [tool('x`<@U1>', { description: '<https://evil.example|click> & <!channel>' })],
    });
    const text = JSON.stringify(message.blocks);
    expect(text).not.toMatch(/<!here>|<!channel>|<@U1>|<https:/);
    expect(text).toContain("`x'&lt;@U1&gt;`");
  });

  it('stays inside 50 blocks and 3000-character sections, counting the tools it leaves out', () => {
    const many = Array.from({ length: 120 }, (_, i) => tool(`tool_${i}`, { description: 'd'.repeat(5000) }));
    const message = toolsMessage({ server: 'big', tools: many });
    expect(slackIssues(message)).toEqual([]);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    expect(JSON.stringify(message.blocks.at(-1))).toContain(`${120 - TOOLS_SHOWN_MAX} more tools`);
  });

  it('says so when the server has no tools, in Chinese too', () => {
    expect(toolsMessage({ server: 'empty', tools: [] }).text).toBe('empty offers no tools.');
    expect(toolsMessage({ server: 'empty', tools: [], locale: 'zh-CN' }).text).toBe(
      'empty 没有提供任何工具。',
    );
  });
});

describe('takesArguments', () => {
  it('is true only for a schema with at least one property', () => {
    expect(takesArguments({ type: 'object', properties: { a: {} } })).toBe(true);
    expect(takesArguments({ type: 'object', properties: {} })).toBe(false);
    expect(takesArguments({ type: 'object' })).toBe(false);
    expect(takesArguments(null)).toBe(false);
  });
  it('names the tools the MCP schema refused in a closing note, inert and at most ten, counting the rest', () => {
    const refused = ['x`<@U1>', ...Array.from({ length: 11 }, (_, i) => `bad_${i}`)];
    const message = toolsMessage({ server: 'gh', tools: [tool('whoami')], refused });
    const note = message.blocks.at(-1);
    expect(note?.type).toBe('context');
    const text = JSON.stringify(note);
    expect(text).toContain(
      "Left out, their definitions are malformed (`/mcp run` says why): `x'&lt;@U1&gt;`, `bad_0`",
    );
    expect(text).toContain('`bad_8` (+2)');
    expect(text).not.toContain('bad_9');
    expect(slackIssues(message)).toEqual([]);
  });

  it('names only as many refused tools as a context holds once escaped, counting the rest', () => {
    // 200 characters each once cut, but `&` escapes to `&amp;`: ten such names were ~10,000 characters, past
    // Slack's 3000 for a context's text, and Slack refused the whole reply.
    const refused = Array.from({ length: 12 }, (_, i) => `${'&'.repeat(10_000)}${i}`);
    for (const tools of [[], [tool('whoami')]]) {
      const message = toolsMessage({ server: 'gh', tools, refused });
      expect(slackIssues(message)).toEqual([]);
      expect(JSON.stringify(message.blocks.at(-1))).toMatch(/`&amp;(&amp;)+…` \(\+\d+\)/);
    }
  });

  it('says a server whose every tool was refused offers no tools, and names them', () => {
    const message = toolsMessage({ server: 'gh', tools: [], refused: ['bad'], locale: 'zh-CN' });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('没有提供任何工具');
    expect(text).toContain('`bad`');
  });
});
