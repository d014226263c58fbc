// A form page at the parser's size limit, shown again with an error under every field: the whole view must
// stay within Slack's 250 kB (views over it are refused with view_too_large), the fields and errors whole.
import { describe, expect, it } from 'vitest';
import { formModal } from '../../blocks/modal.js';
import { SchemaError, parseFormSchema } from '../../blocks/schema.js';
import { VIEW_BYTES_MAX } from '../../blocks/slack-limits.js';
import { validationErrors } from '../../blocks/validate.js';
import { slackIssues } from './testing.js';

const CJK = '密';
/** 19 text fields that must be one `const` of 75 "&" (escaped fivefold in an error), and a select of `options`. */
function schemaOf(options: number) {
  const properties: Record<string, unknown> = {
    team: {
      type: 'string',
      title: CJK.repeat(300),
      description: CJK.repeat(2000),
      enum: Array.from({ length: options }, (_, k) => `${CJK.repeat(74)}${k}`),
    },
  };
  for (let i = 0; i < 19; i++) {
    const agree = `${'&'.repeat(74)}${i}`;
    properties[`password${i}`] = {
      type: 'string',
      title: CJK.repeat(300),
      description: CJK.repeat(2000),
      const: agree,
    };
  }
  return { type: 'object', properties, required: Object.keys(properties) };
}

/** The largest such schema the parser takes (the page's fields just within FIELDS_BYTES_MAX). */
function largestSchema() {
  let [low, high] = [1, 100];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    try {
      parseFormSchema(schemaOf(mid));
      low = mid;
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      high = mid - 1;
    }
  }
  return schemaOf(low);
}

describe('a form page at the size limit shown again with its errors', () => {
  it('stays within 250 kB with every field and error, the message cut short', () => {
    const spec = parseFormSchema(largestSchema());
    const errors = validationErrors(
      spec,
      Object.fromEntries(spec.fields.map((f) => [f.name, 'no'])),
      'zh-CN',
    );
    expect(Object.keys(errors)).toHaveLength(20);
    const message = `${CJK.repeat(2999)}\n`.repeat(10);
    const view = formModal(spec, { questionId: 'q1', server: 'hr', message, locale: 'zh-CN', errors });
    expect(slackIssues(view)).toEqual([]);
    expect(new TextEncoder().encode(JSON.stringify(view)).length).toBeLessThanOrEqual(VIEW_BYTES_MAX);
    const types = view.blocks.map((b) => b.type);
    expect(types.filter((t) => t === 'input')).toHaveLength(20);
    expect(
      view.blocks.filter((b) => b.type === 'context' && /"text":":warning: [^*]/.test(JSON.stringify(b))),
    ).toHaveLength(20);
    const sections = view.blocks.flatMap((b) => (b.type === 'section' && b.text ? [b.text.text] : []));
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.at(-1)?.endsWith('…')).toBe(true);
  });
});
