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
