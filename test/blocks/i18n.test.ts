import { describe, expect, it } from 'vitest';
import { endedCard, requestCard } from '../../blocks/card.js';
import { UI_TEXT, localeOf } from '../../blocks/i18n.js';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { slackIssues } from './testing.js';

// Keys of a table, nested tables included ("errors.required").
function keysOf(table: object, prefix = ''): string[] {
  return Object.entries(table).flatMap(([key, value]: [string, unknown]) =>
    typeof value === 'object' && value !== null ? keysOf(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

const spec = parseFormSchema({
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 3 },
    age: { type: 'integer', minimum: 18 },
    ok: { type: 'boolean' },
  },
  required: ['name'],
});
const at = (blockId: string, value: Record<string, unknown>) => ({ [blockId]: { [blockId]: value } });

describe('UI text tables', () => {
  it('English and Chinese have the same keys, each a non-empty string or a function', () => {
    expect(keysOf(UI_TEXT['zh-CN']).sort()).toEqual(keysOf(UI_TEXT.en).sort());
    for (const table of Object.values(UI_TEXT)) {
      for (const key of keysOf(table)) {
        const value = key.split('.').reduce<unknown>((t, k) => (t as Record<string, unknown>)[k], table);
        expect(typeof value === 'function' || (typeof value === 'string' && value !== '')).toBe(true);
      }
    }
  });
});

describe('localeOf', () => {
  it('maps every Chinese Slack locale to zh-CN and anything else to English', () => {
    expect(['zh-CN', 'zh-TW', 'zh', 'zh_HK'].map(localeOf)).toEqual(['zh-CN', 'zh-CN', 'zh-CN', 'zh-CN']);
    expect(['en-US', 'ja-JP', 'zhx', '', undefined].map(localeOf)).toEqual(['en', 'en', 'en', 'en', 'en']);
  });
});

describe('Chinese UI', () => {
  it('writes validation errors in Chinese when asked, English otherwise', () => {
    const state = {
      ...at('f0_name', { type: 'plain_text_input', value: 'Al' }),
      ...at('f1_age', { type: 'number_input', value: '12' }),
    };
    expect(readSubmission(spec, state, { locale: 'zh-CN' })).toEqual({
      ok: false,
      errors: { f0_name: '必须至少为 3 个字符', f1_age: '必须至少为 18' },
    });
    expect(readSubmission(spec, state)).toEqual({
      ok: false,
      errors: { f0_name: 'Must be at least 3 characters', f1_age: 'Must be at least 18' },
    });
    const typed = { ...at('f1_age', { type: 'number_input', value: '18.5' }) };
    expect(readSubmission(spec, typed, { locale: 'zh-CN' })).toEqual({
      ok: false,
      errors: { f0_name: '此项为必填项', f1_age: '请输入整数' },
    });
  });

  it('labels the modal, its buttons and Yes/No in Chinese', () => {
    const view = formModal(spec, { questionId: 'q', server: 'gh', message: 'm', locale: 'zh-CN' });
    expect(slackIssues(view)).toEqual([]);
    expect([view.submit.text, view.close.text]).toEqual(['发送', '取消']);
    expect(JSON.stringify(view.blocks[0])).toContain('来自 *gh*');
    expect(JSON.stringify(view.blocks.at(-1))).toContain('"text":"是"');
  });

  it('words the cards in Chinese', () => {
    const card = requestCard({ questionId: 'q', server: 'gh', message: 'm', deadline: 0, locale: 'zh-CN' });
    expect(slackIssues(card)).toEqual([]);
    expect(card.text).toBe('gh 需要你的输入: m');
    expect(JSON.stringify(card.blocks)).toContain('"text":"回答"');
    const ended = endedCard({
      server: 'gh',
      message: 'm',
      state: 'accepted',
      reason: 'answered',
      byUserId: 'U1',
      locale: 'zh-CN',
    });
    expect(ended.text).toBe('gh: <@U1> 已回答');
  });
});
