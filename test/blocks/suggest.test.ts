// Suggestions for external selects: what the bot answers to block_suggestion as the person types.
import { describe, expect, it } from 'vitest';
import { parseFormSchema } from '../../blocks/schema.js';
import { SUGGESTION_OPTIONS_MAX } from '../../blocks/slack-limits.js';
import { suggestOptions } from '../../blocks/suggest.js';

const regions = Array.from({ length: 250 }, (_, i) => `Region ${i + 1}`);
const spec = parseFormSchema({
  type: 'object',
  properties: {
    region: { type: 'string', enum: regions },
    cities: {
      type: 'array',
      items: {
        anyOf: [
          ...regions.map((r, i) => ({ const: `c${i}`, title: `City near ${r}` })),
          { const: 'bj', title: '北京' },
        ],
      },
    },
    name: { type: 'string' },
  },
});
const actionOf = (name: string): string => spec.fields.find((f) => f.name === name)?.actionId ?? '';

describe('suggestOptions', () => {
  it('offers the options whose label contains the typed text, any case, valued by position', () => {
    expect(suggestOptions(spec, actionOf('region'), 'region 11')).toEqual(
      ['Region 11', ...Array.from({ length: 10 }, (_, i) => `Region ${110 + i}`)].map((text) => ({
        text: { type: 'plain_text', text, emoji: true },
        value: `o${Number(text.slice(7)) - 1}`,
      })),
    );
    expect(suggestOptions(spec, actionOf('cities'), '北').map((o) => o.value)).toEqual(['o250']);
    expect(suggestOptions(spec, actionOf('cities'), 'C249').map((o) => o.text.text)).toEqual([
      'City near Region 250',
    ]);
  });

  it('offers at most 100, in the schema order', () => {
    const all = suggestOptions(spec, actionOf('region'), 'region');
    expect(all).toHaveLength(SUGGESTION_OPTIONS_MAX);
    expect(all[0]?.text.text).toBe('Region 1');
  });

  it('offers nothing for a field without options or an unknown action', () => {
    expect(suggestOptions(spec, actionOf('name'), 'a')).toEqual([]);
    expect(suggestOptions(spec, 'nope', 'a')).toEqual([]);
    expect(suggestOptions(spec, actionOf('region'), 'atlantis')).toEqual([]);
  });
});
