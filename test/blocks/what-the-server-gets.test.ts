// A person fills the form in Slack; what content does the MCP server get, is it what they meant, and does it meet
// the schema the server requested? Each case goes schema → modal → Slack's state.values → readSubmission → the
// accepted result (defaults applied, as the MCP side sends it), then is checked against the requested schema by
// a separate ajv, as a server validating its own schema would.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '../../src/relay/types.js';
import { toElicitResult } from '../../src/mcp/elicitation.js';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { slackIssues, stateFor, untouchedState } from './testing.js';

// strict: false, as a server's own validator: MCP's `enumNames` is no JSON Schema keyword. multipleOfPrecision:
// JSON Schema's multipleOf is exact division, which ajv's binary one only approaches with a tolerance (on its
// defaults, as the TS SDK's server uses it, it refuses 0.3 for 0.1: see the multipleOf test).
const serverAjv = new Ajv({ allErrors: true, strict: false, multipleOfPrecision: 9 });
addFormats.default(serverAjv);

type Raw = Record<string, unknown>;
type Values = Record<string, Record<string, Raw>>;
type Sent = { ok: true; content: Content; valid: boolean } | { ok: false; errors: Record<string, string> };

const form = (properties: Raw, required: string[] = []) => ({ type: 'object', properties, required });

/** What the server gets when the person leaves Slack's state as `fill` makes it (untouched by default). */
function send(schema: Raw, fill?: (blockId: string) => Values, locale?: 'zh-CN'): Sent {
  const spec = parseFormSchema(schema);
  const view = formModal(spec, { questionId: 'q', server: 's', message: 'm' });
  expect(slackIssues(view)).toEqual([]);
  const blockId = spec.fields[0]?.blockId ?? '';
  const read = readSubmission(spec, fill ? fill(blockId) : untouchedState(view), locale ? { locale } : {});
  if (!read.ok) return read;
  const result = toElicitResult({ action: 'accept', content: read.content }, 'form', schema);
  const content = result.content ?? {};
  return { ok: true, content, valid: serverAjv.validate(schema, content) };
}

/** Slack's state for the first field: `value` as the element reports it. */
const typed =
  (value: Raw) =>
  (blockId: string): Values => ({ [blockId]: { [blockId]: value } });

describe('a multi-select with a default', () => {
  const tags = { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, default: ['a'] };

  it('unticked to nothing reaches the server as [], not as the default the person removed', () => {
    expect(send(form({ tags }), typed({ type: 'checkboxes', selected_options: [] }))).toEqual({
      ok: true,
      content: { tags: [] },
      valid: true,
    });
  });

  it('left as drawn keeps the default', () => {
    expect(send(form({ tags }))).toEqual({ ok: true, content: { tags: ['a'] }, valid: true });
  });

  it('unticked where [] breaks minItems is left out, so the server applies its default as the schema allows', () => {
    const atLeastOne = { ...tags, minItems: 1 };
    const sent = send(form({ tags: atLeastOne }), typed({ type: 'checkboxes', selected_options: [] }));
    expect(sent).toEqual({ ok: true, content: { tags: ['a'] }, valid: true });
  });
});

describe('keywords beyond the MCP subset that constrain the answer', () => {
  const number = (value: string) => typed({ type: 'number_input', value });
  const yesNo = (value: 'yes' | 'no') => typed({ type: 'radio_buttons', selected_option: { value } });

  it('a number enum refuses a number not listed, naming the ones that are, and takes a listed one', () => {
    const schema = form({ n: { type: 'integer', enum: [1, 2, 3] } });
    expect(send(schema, number('4'))).toEqual({ ok: false, errors: { f0_n: 'Must be one of: 1, 2, 3' } });
    expect(send(schema, number('2'))).toEqual({ ok: true, content: { n: 2 }, valid: true });
  });

  it('exclusiveMinimum, exclusiveMaximum and multipleOf refuse what the server would, in Chinese too', () => {
    const schema = form({
      n: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
    });
    expect(send(schema, number('0'))).toEqual({ ok: false, errors: { f0_n: 'Must be more than 0' } });
    expect(send(schema, number('10'))).toEqual({ ok: false, errors: { f0_n: 'Must be less than 10' } });
    expect(send(schema, number('0.3'))).toEqual({ ok: false, errors: { f0_n: 'Must be a multiple of 0.5' } });
    expect(send(schema, number('0'), 'zh-CN')).toEqual({ ok: false, errors: { f0_n: '必须大于 0' } });
    expect(send(schema, number('9.5'))).toEqual({ ok: true, content: { n: 9.5 }, valid: true });
  });

  it('multipleOf takes 0.3 as a multiple of 0.1, as JSON Schema does, and refuses 0.35', () => {
    // 0.3 / 0.1 is 2.9999999999999996 in binary: an ajv on its defaults (the TS SDK server's) refuses 0.3. The
    // form follows the spec, which divides exactly (blocks/decimals.ts).
    const schema = form({ n: { type: 'number', multipleOf: 0.1 } });
    expect(new Ajv({ strict: false }).validate(schema, { n: 0.3 })).toBe(false);
    expect(send(schema, number('0.3'))).toEqual({ ok: true, content: { n: 0.3 }, valid: true });
    expect(send(schema, number('0.35'))).toEqual({
      ok: false,
      errors: { f0_n: 'Must be a multiple of 0.1' },
    });
    expect(send(schema, number('0.5'))).toEqual({ ok: true, content: { n: 0.5 }, valid: true });
  });

  it('draft-04 boolean exclusiveMinimum makes the minimum itself refused', () => {
    // Read without the server's ajv, a later draft's, which refuses a boolean exclusiveMinimum as no schema.
    const spec = parseFormSchema(form({ n: { type: 'integer', minimum: 1, exclusiveMinimum: true } }));
    expect(readSubmission(spec, number('1')('f0_n'))).toEqual({
      ok: false,
      errors: { f0_n: 'Must be more than 1' },
    });
    expect(readSubmission(spec, number('2')('f0_n'))).toEqual({ ok: true, content: { n: 2 } });
  });

  it('a boolean that must be true (const or enum) refuses No with the answer it needs', () => {
    for (const rule of [{ const: true }, { enum: [true] }]) {
      const schema = form({ agree: { type: 'boolean', ...rule } }, ['agree']);
      expect(send(schema, yesNo('no'))).toEqual({ ok: false, errors: { f0_agree: 'Must be one of: Yes' } });
      expect(send(schema, yesNo('yes'))).toEqual({ ok: true, content: { agree: true }, valid: true });
    }
  });

  it('a text const refuses any other text', () => {
    const schema = form({ word: { type: 'string', const: 'DELETE' } }, ['word']);
    const text = (value: string) => typed({ type: 'plain_text_input', value });
    expect(send(schema, text('delete'))).toEqual({
      ok: false,
      errors: { f0_word: 'Must be one of: DELETE' },
    });
    expect(send(schema, text('DELETE'))).toEqual({ ok: true, content: { word: 'DELETE' }, valid: true });
  });

  it('a default that breaks them is neither pre-filled nor sent', () => {
    const schema = form({ n: { type: 'integer', enum: [1, 2], default: 3, exclusiveMinimum: 0 } });
    expect(parseFormSchema(schema).fields[0]).not.toHaveProperty('default');
    expect(send(schema)).toEqual({ ok: true, content: {}, valid: true });
  });

  it('an enum listing a value twice takes it, rather than failing to compile at submission', () => {
    const spec = parseFormSchema(form({ n: { type: 'integer', enum: [1, 1, 2] } }));
    expect(readSubmission(spec, number('1')('f0_n'))).toEqual({ ok: true, content: { n: 1 } });
  });

  it('refuses malformed ones by name, not by a failed compile at submission', () => {
    const bad = (extra: Raw) => () => parseFormSchema(form({ n: { type: 'number', ...extra } }));
    expect(bad({ multipleOf: 0 })).toThrow('"multipleOf" must be a number greater than 0');
    expect(bad({ exclusiveMaximum: 'ten' })).toThrow('"exclusiveMaximum" must be a number');
    expect(bad({ enum: [] })).toThrow('"enum" must be a non-empty array');
  });

  it('whatever a person types into a number field, the server gets content its schema accepts (property)', () => {
    const rule = fc.record(
      {
        type: fc.constantFrom('number', 'integer'),
        minimum: fc.integer({ min: -50, max: 0 }),
        exclusiveMaximum: fc.integer({ min: 1, max: 50 }),
        multipleOf: fc.constantFrom(0.1, 0.25, 0.5, 1, 3),
        enum: fc.uniqueArray(fc.integer({ min: -60, max: 60 }), { minLength: 1, maxLength: 6 }),
      },
      { requiredKeys: ['type'] },
    );
    const answer = fc.oneof(
      fc.integer({ min: -60, max: 60 }).map(String),
      fc.double({ min: -60, max: 60 }).map(String),
    );
    fc.assert(
      fc.property(rule, answer, (n, value) => {
        const sent = send(form({ n }), number(value));
        if (sent.ok) expect(sent.valid).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a date-time default left as drawn', () => {
  it('reaches the server as the server wrote it, not rewritten to whole UTC seconds', () => {
    const at = '2025-06-01T10:00:30.5+02:00';
    const schema = form({ when: { type: 'string', format: 'date-time', default: at } }, ['when']);
    expect(send(schema)).toEqual({ ok: true, content: { when: at }, valid: true });
  });

  it('moved to another moment is sent as that moment in UTC', () => {
    const schema = form({
      when: { type: 'string', format: 'date-time', default: '2025-06-01T10:00:00+02:00' },
    });
    const picked = typed({ type: 'datetimepicker', selected_date_time: Date.UTC(2025, 5, 1, 9) / 1000 });
    expect(send(schema, picked)).toEqual({
      ok: true,
      content: { when: '2025-06-01T09:00:00Z' },
      valid: true,
    });
  });
});

describe('numbers typed with a Chinese input method', () => {
  it('reads full-width digits, point and minus as the number they are', () => {
    const number = (value: string) => typed({ type: 'number_input', value });
    expect(send(form({ n: { type: 'number' } }), number('－３．５'))).toEqual({
      ok: true,
      content: { n: -3.5 },
      valid: true,
    });
    expect(send(form({ n: { type: 'integer' } }), number('１２'))).toEqual({
      ok: true,
      content: { n: 12 },
      valid: true,
    });
  });
});

describe('held: what a person types or picks reaches the server as they meant it', () => {
  const integer = form({ n: { type: 'integer', minimum: 0, maximum: 1000 } }, ['n']);
  const number = (value: string) => typed({ type: 'number_input', value });

  it.each([
    ['1e3', 1000],
    [' 12 ', 12],
    ['-0', 0],
    ['1.0', 1],
    ['0', 0],
    ['1000', 1000],
  ])('integer field: %j reaches the server as %j', (value, expected) => {
    const sent = send(integer, number(value));
    expect(sent).toMatchObject({ ok: true, valid: true });
    // Compared as the wire carries it: JSON has no negative zero, so "-0" reaches the server as 0.
    expect(sent.ok && JSON.stringify(sent.content)).toBe(`{"n":${expected}}`);
  });

  it.each([
    ['1001', 'Must be at most 1000'],
    ['-1', 'Must be at least 0'],
    ['1.5', 'Enter a whole number'],
    ['0x10', 'Enter a number'],
    ['1,000', 'Enter a number'],
  ])('integer field: %j is refused (%s), never sent changed', (value, error) => {
    expect(send(integer, number(value))).toEqual({ ok: false, errors: { f0_n: error } });
  });

  it('a decimal at the very bound is taken', () => {
    const schema = form({ n: { type: 'number', minimum: 0.1, maximum: 0.3 } });
    expect(send(schema, number('0.1'))).toEqual({ ok: true, content: { n: 0.1 }, valid: true });
    expect(send(schema, number('0.3'))).toEqual({ ok: true, content: { n: 0.3 }, valid: true });
  });

  it('a required boolean answered No reaches the server as false', () => {
    const schema = form({ ok: { type: 'boolean' } }, ['ok']);
    const no = typed({ type: 'radio_buttons', selected_option: { value: 'no' } });
    expect(send(schema, no)).toEqual({ ok: true, content: { ok: false }, valid: true });
  });

  it('empty optional fields are left out, not sent as ""', () => {
    const schema = form({ t: { type: 'string' }, n: { type: 'number' } });
    const spec = parseFormSchema(schema);
    const view = formModal(spec, { questionId: 'q', server: 's', message: 'm' });
    const state = stateFor(spec, view, {});
    for (const block of Object.values(state)) for (const el of Object.values(block)) el['value'] = '';
    expect(readSubmission(spec, state)).toEqual({ ok: true, content: {} });
  });

  it('Chinese text under a property name with dots and spaces reaches the server under that name', () => {
    const name = '名字 first.last';
    const schema = form({ [name]: { type: 'string', title: '你的名字', maxLength: 2 } }, [name]);
    const sent = send(schema, typed({ type: 'plain_text_input', value: '张三' }));
    expect(sent).toEqual({ ok: true, content: { [name]: '张三' }, valid: true });
  });

  it('a 400-character value behind a 200-character title is sent whole, from a view Slack takes', () => {
    const long = 'v'.repeat(400);
    const schema = form({
      e: {
        type: 'string',
        oneOf: [
          { const: 'a', title: 'A' },
          { const: long, title: 't'.repeat(200) },
        ],
      },
    });
    const picked = typed({ type: 'radio_buttons', selected_option: { value: 'o1' } });
    expect(send(schema, picked)).toEqual({ ok: true, content: { e: long }, valid: true });
  });

  it('an option of a 300-option select, picked from the suggestions, is sent as its value', () => {
    const values = Array.from({ length: 300 }, (_, i) => `城市 ${i}`);
    const schema = form({ city: { type: 'string', enum: values, default: '城市 250' } }, ['city']);
    expect(send(schema)).toEqual({ ok: true, content: { city: '城市 250' }, valid: true });
    const picked = typed({ type: 'external_select', selected_option: { value: 'o299' } });
    expect(send(schema, picked)).toEqual({ ok: true, content: { city: '城市 299' }, valid: true });
  });

  it('a multi-select with minItems refuses too few picks and sends enough in the schema order', () => {
    const schema = form(
      {
        m: {
          type: 'array',
          minItems: 2,
          items: {
            anyOf: [
              { const: 'x', title: 'X' },
              { const: 'y', title: 'Y' },
              { const: 'z', title: 'Z' },
            ],
          },
        },
      },
      ['m'],
    );
    const picks = (...at: number[]) =>
      typed({ type: 'checkboxes', selected_options: at.map((i) => ({ value: `o${i}` })) });
    expect(send(schema, picks(2))).toEqual({ ok: false, errors: { f0_m: 'Choose at least 2' } });
    expect(send(schema, picks(2, 0))).toEqual({ ok: true, content: { m: ['x', 'z'] }, valid: true });
  });

  it('enum values that are not strings are refused by name before anyone is asked', () => {
    expect(() => parseFormSchema(form({ e: { type: 'string', enum: [1, 2] } }))).toThrow(
      'property "e": "enum" must be an array of strings',
    );
    expect(() =>
      parseFormSchema(form({ m: { type: 'array', items: { anyOf: [{ const: 1, title: 'one' }] } } })),
    ).toThrow('every "anyOf" entry needs a string "const"');
  });
});
