import { describe, expect, it } from 'vitest';
import { parseFormSchema } from '../../blocks/schema.js';
import { SUMMARY_LINES_MAX, answerLines } from '../../blocks/summary.js';

const spec = parseFormSchema({
  type: 'object',
  properties: {
    plan: { type: 'string', title: 'Plan', oneOf: [{ const: 'team', title: 'Team plan' }] },
    tags: {
      type: 'array',
      title: 'Tags',
      items: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] },
    },
    ok: { type: 'boolean', title: 'OK?' },
    password: { type: 'string', title: 'Password' },
    note: { type: 'string', title: '<!channel> note' },
    seats: { type: 'integer', title: 'Seats' },
  },
});

describe('answerLines', () => {
  it('lists answered fields in form order with option titles, yes/no, and secrets masked', () => {
    const lines = answerLines(spec, {
      seats: 3,
      ok: true,
      plan: 'team',
      tags: ['b', 'a'],
      password: 'hunter2',
    });
    expect(lines).toEqual([
      '*Plan*: Team plan',
      '*Tags*: Beta, Alpha',
      '*OK?*: Yes',
      '*Password*: ••••••',
      '*Seats*: 3',
    ]);
    expect(lines.join()).not.toContain('hunter2');
  });

  it('escapes server and person text so nothing in an answer pings or links', () => {
    expect(answerLines(spec, { note: '<!here> <@U1>' })).toEqual([
      '*&lt;!channel&gt; note*: &lt;!here&gt; &lt;@U1&gt;',
    ]);
  });

  it('speaks the person’s language and shortens long answers with a count of the rest', () => {
    expect(answerLines(spec, { ok: false }, 'zh-CN')).toEqual(['*OK?*: 否']);
    const many = parseFormSchema({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}`, { type: 'integer' }])),
    });
    const content = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}`, i]));
    const lines = answerLines(many, content);
    expect(lines).toHaveLength(SUMMARY_LINES_MAX + 1);
    expect(lines.at(-1)).toBe('…and 5 more');
  });
});
