import { describe, expect, it } from 'vitest';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';

const spec = parseFormSchema({
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 3 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    meet: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 18 },
    score: { type: 'number', maximum: 10 },
    ok: { type: 'boolean' },
    color: {
      type: 'string',
      oneOf: [
        { const: 'x'.repeat(200), title: 'Long' },
        { const: 'r', title: 'Red' },
      ],
    },
    tags: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 2, maxItems: 2 },
  },
  required: ['name'],
});
const at = (blockId: string, value: Record<string, unknown>) => ({ [blockId]: { [blockId]: value } });
const state = (...parts: Record<string, unknown>[]) => Object.assign({}, ...parts) as Record<string, unknown>;
const name = at('f0_name', { type: 'plain_text_input', value: 'Ada' });

describe('readSubmission: typed content', () => {
  it('types every kind as the schema says', () => {
    const result = readSubmission(
      spec,
      state(
        name,
        at('f1_email', { type: 'email_text_input', value: 'ada@example.com' }),
        at('f2_site', { type: 'url_text_input', value: 'https://example.com/x' }),
        at('f3_born', { type: 'datepicker', selected_date: '1990-04-28' }),
        at('f4_meet', { type: 'datetimepicker', selected_date_time: 1796205600 }),
        at('f5_age', { type: 'number_input', value: '36' }),
        at('f6_score', { type: 'number_input', value: '9.5' }),
        at('f7_ok', {
          type: 'radio_buttons',
          selected_option: { text: { type: 'plain_text', text: 'No' }, value: 'no' },
        }),
        at('f8_color', { type: 'radio_buttons', selected_option: { value: 'o0' } }),
        at('f9_tags', { type: 'checkboxes', selected_options: [{ value: 'o2' }, { value: 'o0' }] }),
      ),
    );
    expect(result).toEqual({
      ok: true,
      content: {
        name: 'Ada',
        email: 'ada@example.com',
        site: 'https://example.com/x',
        born: '1990-04-28',
        meet: '2026-12-02T10:00:00Z',
        age: 36,
        score: 9.5,
        ok: false,
        color: 'x'.repeat(200),
        tags: ['a', 'c'],
      },
    });
  });

  it('leaves empty optional fields out of content', () => {
    const result = readSubmission(
      spec,
      state(
        name,
        at('f1_email', { type: 'email_text_input', value: null }),
        at('f3_born', { type: 'datepicker', selected_date: null }),
        at('f5_age', { type: 'number_input', value: '' }),
        at('f7_ok', { type: 'radio_buttons', selected_option: null }),
        at('f9_tags', { type: 'checkboxes', selected_options: [] }),
      ),
    );
    expect(result).toEqual({ ok: true, content: { name: 'Ada' } });
  });

  it('gives [] for a required multi-select left empty', () => {
    const multi = parseFormSchema({
      type: 'object',
      properties: { t: { type: 'array', items: { enum: ['a'] } } },
      required: ['t'],
    });
    expect(readSubmission(multi, at('f0_t', { type: 'checkboxes', selected_options: [] }))).toEqual({
      ok: true,
      content: { t: [] },
    });
  });
});

describe('readSubmission: errors keyed by block id', () => {
  it('writes validation errors for people', () => {
    const result = readSubmission(
      spec,
      state(
        at('f0_name', { type: 'plain_text_input', value: 'Al' }),
        at('f1_email', { type: 'email_text_input', value: 'not-an-email' }),
        at('f2_site', { type: 'url_text_input', value: 'no scheme' }),
        at('f5_age', { type: 'number_input', value: '12' }),
        at('f6_score', { type: 'number_input', value: '11' }),
        at('f9_tags', { type: 'checkboxes', selected_options: [{ value: 'o1' }] }),
      ),
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        f0_name: 'Must be at least 3 characters',
        f1_email: 'Enter a valid email address',
        f2_site: 'Enter a valid URL, like https://example.com',
        f5_age: 'Must be at least 18',
        f6_score: 'Must be at most 10',
        f9_tags: 'Choose at least 2',
      },
    });
  });

  it('reports values that cannot be typed', () => {
    const result = readSubmission(
      spec,
      state(
        name,
        at('f5_age', { type: 'number_input', value: '18.5' }),
        at('f6_score', { type: 'number_input', value: 'abc' }),
        at('f8_color', { type: 'static_select', selected_option: { value: 'forged' } }),
      ),
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        f5_age: 'Enter a whole number',
        f6_score: 'Enter a number',
        f8_color: 'Choose one of the options',
      },
    });
  });

  it('reports a missing required field on its block', () => {
    expect(readSubmission(spec, {})).toEqual({ ok: false, errors: { f0_name: 'This field is required' } });
    expect(readSubmission(spec, 'garbage')).toEqual({
      ok: false,
      errors: { f0_name: 'This field is required' },
    });
  });

  it('keeps a property named __proto__ an ordinary key', () => {
    const odd = parseFormSchema(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'));
    const block = odd.fields[0]?.blockId ?? '';
    const result = readSubmission(odd, at(block, { type: 'plain_text_input', value: 'x' }));
    expect(result.ok && Object.keys(result.content)).toEqual(['__proto__']);
  });

  it('never reads a property named like an Object.prototype member from the prototype', () => {
    const odd = parseFormSchema({
      type: 'object',
      properties: {
        constructor: { type: 'array', items: { enum: ['a'] }, minItems: 1 },
        valueOf: { type: 'string', format: 'date-time' },
        toString: { type: 'integer' },
      },
    });
    expect(readSubmission(odd, {})).toEqual({ ok: true, content: {} });
  });
});
