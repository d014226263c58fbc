// `/mcp tools` for a server whose titles and descriptions are full of characters mrkdwn escapes (`&` becomes five
// characters, `<` and `>` four): each tool's section still fits Slack's 3000 characters once escaped, so one such
// tool (a careless or hostile server) never gets the whole listing refused.
import { describe, expect, it } from 'vitest';
import { slackIssues } from './testing.js';
import { toolsMessage } from '../../blocks/tools.js';
import { SECTION_TEXT_MAX } from '../../blocks/slack-limits.js';

type Section = { type: string; text?: { text: string } };

const escapeHeavy = (i: number) => ({
  name: `tool_${i}`,
  title: 'R&D<&>'.repeat(40),
  description: `Returns List<Map<String, Integer>> && ${'<&>'.repeat(300)}`,
  inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
});

describe('toolsMessage with titles and descriptions that grow when escaped', () => {
  it('keeps every tool section within 3000 characters, escaped, and the message valid', () => {
    const message = toolsMessage({
      server: 'xml',
      tools: Array.from({ length: 300 }, (_, i) => escapeHeavy(i)),
    });
    const sections = (message.blocks as Section[]).filter((b) => b.type === 'section');
    for (const s of sections) expect(s.text?.text.length ?? 0).toBeLessThanOrEqual(SECTION_TEXT_MAX);
    expect(slackIssues(message)).toEqual([]);
  });

  it('cuts the escaped text between entities and still shows the start of the description', () => {
    const message = toolsMessage({ server: 'xml', tools: [escapeHeavy(1)] });
    const line = (message.blocks as Section[])[1]?.text?.text ?? '';
    expect(line).toContain(
      '`tool_1` _(takes arguments)_\nReturns List&lt;Map&lt;String, Integer&gt;&gt; &amp;&amp;',
    );
    expect(line).toMatch(/…$/);
    expect(line).not.toMatch(/&(?:a|am|amp|l|lt|g|gt)?…$/);
  });
});
