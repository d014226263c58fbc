// Every property name a schema can hold arrives with its value, including names that are special on plain
// JavaScript objects (issue 15.3: `__proto__` was validated, answered, then dropped).
import { describe, expect, it } from 'vitest';
import { formModal } from '../../blocks/modal.js';
import { mergePageContent } from '../../blocks/pages.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { PAGE_FIELDS } from '../../blocks/spec.js';
import type { Content } from '../../src/relay/types.js';
import { slackIssues, stateFor } from './testing.js';

const SPECIAL = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', ''];

/** A schema whose properties are the special names (required text fields) after `padding` ordinary ones. */
function schemaWith(padding: number): unknown {
  const names = [...Array.from({ length: padding }, (_, i) => `f${i}`), ...SPECIAL];
  // JSON.parse, as the relay receives a schema: "__proto__" becomes an own property, not the prototype.
  const properties = JSON.parse(JSON.stringify(Object.fromEntries(names.map((n) => [n, 0])))) as object;
  for (const name of names)
    Object.defineProperty(properties, name, { value: { type: 'string' }, enumerable: true });
  return { type: 'object', properties, required: names };
}

/** JSON round trip, as content travels through Redis: "__proto__" stays an own key. */
const viaJson = (content: Content): Content => JSON.parse(JSON.stringify(content)) as Content;
const answers = (names: string[]): Content => viaJson(Object.fromEntries(names.map((n) => [n, `v-${n}`])));

describe('content keeps every property name', () => {
  it('reads __proto__, constructor, toString, hasOwnProperty and "" back from state.values', () => {
    const spec = parseFormSchema(schemaWith(0));
    const wanted = answers(SPECIAL);
    const view = formModal(spec, { questionId: 'q', server: 's', message: 'm' });
    const read = readSubmission(spec, stateFor(spec, view, wanted));
    expect(read.ok && Object.keys(read.content)).toEqual(SPECIAL);
    expect(read.ok && JSON.stringify(read.content)).toBe(JSON.stringify(wanted));
  });

  it('merges pages over the stored draft without losing a special name, and JSON keeps them', () => {
    const spec = parseFormSchema(schemaWith(PAGE_FIELDS));
    const names = spec.fields.map((f) => f.name);
    const all = answers(names);
    let stored: Content = {};
    for (const page of [0, 1]) {
      const view = formModal(spec, { questionId: 'q', server: 's', message: 'm', page, answers: stored });
      const read = readSubmission(spec, stateFor(spec, view, all), { page });
      if (!read.ok) throw new Error(JSON.stringify(read.errors));
      stored = viaJson(mergePageContent(spec, stored, read.content, page));
    }
    expect(Object.keys(stored)).toEqual(names);
    expect(JSON.stringify(stored)).toBe(JSON.stringify(all));
  });
});

describe('a field whose name or title shows nothing', () => {
  it('is labelled by what shows: a blank title gives way to the name, an invisible name to "Field n"', () => {
    const spec = parseFormSchema({
      type: 'object',
      properties: {
        '\u200B': { type: 'string', format: 'email' },
        ok: { type: 'boolean', title: '\u202E\u2066' },
      },
    });
    expect(spec.fields.map((f) => f.label)).toEqual(['Field 1', 'ok']);
    const view = formModal(spec, { questionId: 'q', server: 's', message: 'm' });
    expect(slackIssues(view)).toEqual([]);
  });
});

describe("a field's rules are checked whatever the property is called", () => {
  // Rules Slack's client does not enforce itself (plain_text_input has no pattern, email_text_input lets any text
  // through, checkboxes have no maximum): only the bot's validation stands between the person and the server.
  const rules: { rule: string; property: object; answer: Content[string]; error: string }[] = [
    {
      rule: 'pattern',
      property: { type: 'string', pattern: '^[A-Z]{3}$' },
      answer: 'hello',
      error: 'Does not match the expected format',
    },
    {
      rule: 'minLength',
      property: { type: 'string', minLength: 8 },
      answer: 'short',
      error: 'Must be at least 8 characters',
    },
    {
      rule: 'format',
      property: { type: 'string', format: 'email' },
      answer: 'not an address',
      error: 'Enter a valid email address',
    },
    { rule: 'maximum', property: { type: 'integer', maximum: 3 }, answer: 9, error: 'Must be at most 3' },
    {
      rule: 'maxItems',
      property: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 1 },
      answer: ['a', 'b'],
      error: 'Choose at most 1',
    },
  ];

  it.each(rules.flatMap((r) => [...SPECIAL, 'code'].map((name) => ({ ...r, name }))))(
    'refuses an answer breaking $rule in a field named $name, under that field',
    ({ property, answer, error, name }) => {
      // Beside an ordinary field, so an error landing on the wrong field would show. As JSON text, as a schema
      // arrives: "__proto__" is then an own key.
      const key = JSON.stringify(name);
      const properties = `{${key}:${JSON.stringify(property)},"before":{"type":"string"}}`;
      const spec = parseFormSchema(JSON.parse(`{"type":"object","properties":${properties}}`));
      const field = spec.fields.find((f) => f.name === name);
      const view = formModal(spec, { questionId: 'q', server: 's', message: 'm' });
      const content = JSON.parse(`{${key}:${JSON.stringify(answer)},"before":"x"}`) as Content;
      expect(readSubmission(spec, stateFor(spec, view, content))).toEqual({
        ok: false,
        errors: { [field?.blockId ?? '?']: error },
      });
    },
  );

  it('reports a required __proto__ left empty on its own block, and accepts it once answered', () => {
    const spec = parseFormSchema(
      JSON.parse(
        '{"type":"object","properties":{"__proto__":{"type":"string","pattern":"^ok$"}},"required":["__proto__"]}',
      ),
    );
    const view = formModal(spec, { questionId: 'q', server: 's', message: 'm' });
    const blockId = spec.fields[0]?.blockId ?? '?';
    expect(readSubmission(spec, stateFor(spec, view, {}))).toEqual({
      ok: false,
      errors: { [blockId]: 'This field is required' },
    });
    const answered = JSON.parse('{"__proto__":"ok"}') as Content;
    const read = readSubmission(spec, stateFor(spec, view, answered));
    expect(read.ok && JSON.stringify(read.content)).toBe('{"__proto__":"ok"}');
  });
});
