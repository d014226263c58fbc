// For random schemas the spec allows and random valid answers: the modal is within Slack's limits, and
// filling it with the answers as Slack would, then reading state.values back, gives exactly those answers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Content } from '../../src/relay/types.js';
import type { Locale } from '../../blocks/i18n.js';
import { formModal } from '../../blocks/modal.js';
import { mergePageContent, pageCount } from '../../blocks/pages.js';
import { parseFormSchema, type FormSpec } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { slackIssues, stateFor } from './testing.js';

type Value = Content[string];
interface Prop {
  schema: Record<string, unknown>;
  answer: Value;
}

const chars = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });
const day = fc.date({
  min: new Date('1900-01-01T00:00:00Z'),
  max: new Date('2199-12-31T23:59:59Z'),
  noInvalidDate: true,
});
const seconds = (d: Date) =>
  new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const text: fc.Arbitrary<Prop> = fc
  .record({ min: fc.nat(4), extra: fc.nat(200) })
  .chain(({ min, extra }) =>
    fc
      .string({ unit: 'binary', minLength: Math.max(min, 1), maxLength: min + extra + 1 })
      .map((answer) => ({ schema: { type: 'string', minLength: min, maxLength: min + extra + 1 }, answer })),
  );
const formatted: fc.Arbitrary<Prop> = fc.oneof(
  fc.emailAddress().map((answer) => ({ schema: { type: 'string', format: 'email' }, answer })),
  fc.webUrl().map((answer) => ({ schema: { type: 'string', format: 'uri' }, answer })),
  day.map((d) => ({ schema: { type: 'string', format: 'date' }, answer: d.toISOString().slice(0, 10) })),
  day.map((d) => ({ schema: { type: 'string', format: 'date-time' }, answer: seconds(d) })),
);
const numeric: fc.Arbitrary<Prop> = fc.oneof(
  fc
    .tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.nat(1e6))
    .chain(([min, span]) =>
      fc
        .integer({ min, max: min + span })
        .map((answer) => ({ schema: { type: 'integer', minimum: min, maximum: min + span }, answer })),
    ),
  fc
    .double({ min: -1e9, max: 1e9, noNaN: true })
    .map((answer) => ({ schema: { type: 'number', minimum: -1e9 }, answer: answer === 0 ? 0 : answer })),
);
const bool: fc.Arbitrary<Prop> = fc.boolean().map((answer) => ({ schema: { type: 'boolean' }, answer }));

const values = fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 200 }), { minLength: 1, maxLength: 30 });
const single: fc.Arbitrary<Prop> = fc
  .tuple(values, fc.constantFrom('enum', 'enumNames', 'oneOf'))
  .chain(([list, variant]) => {
    const schema =
      variant === 'oneOf'
        ? { type: 'string', oneOf: list.map((v) => ({ const: v, title: `T ${v}` })) }
        : {
            type: 'string',
            enum: list,
            ...(variant === 'enumNames' && { enumNames: list.map((v) => `N ${v}`) }),
          };
    return fc.constantFrom(...list).map((answer) => ({ schema, answer }));
  });
const multi: fc.Arbitrary<Prop> = fc.tuple(values, fc.boolean()).chain(([list, titled]) => {
  const items = titled
    ? { anyOf: list.map((v) => ({ const: v, title: v })) }
    : { type: 'string', enum: list };
  return fc.subarray(list, { minLength: 1 }).map((answer) => ({
    schema: { type: 'array', items, minItems: 1, maxItems: list.length },
    answer,
  }));
});

const field = fc.record({
  prop: fc.oneof(text, formatted, numeric, bool, single, multi),
  required: fc.boolean(),
  answered: fc.boolean(),
  withDefault: fc.boolean(),
});
const formOf = (maxLength: number) =>
  fc.uniqueArray(
    fc.tuple(
      fc.oneof(chars, fc.constantFrom('__proto__', 'constructor', 'valueOf', 'a.b', 'with space')),
      field,
    ),
    {
      minLength: 1,
      maxLength,
      selector: ([name]) => name,
    },
  );
const form = formOf(12);
const locale = fc.constantFrom<Locale | undefined>(undefined, 'en', 'zh-CN');
interface Field {
  prop: Prop;
  required: boolean;
  answered: boolean;
  withDefault: boolean;
}

function specAndContent(entries: [string, Field][]): { spec: FormSpec; content: Content } {
  const properties = Object.fromEntries(
    entries.map(([name, f]) => [
      name,
      f.withDefault ? { ...f.prop.schema, default: f.prop.answer } : f.prop.schema,
    ]),
  );
  const required = entries.filter(([, f]) => f.required).map(([name]) => name);
  const content: Content = Object.fromEntries(
    entries
      .filter(([, f]) => f.required || f.answered)
      .map(([name, f]): [string, Value] => [name, f.prop.answer]),
  );
  return { spec: parseFormSchema({ type: 'object', properties, required }), content };
}

describe('round trip: schema → modal → Slack state → content', () => {
  it('reads back exactly the valid answers put in, from a view within Slack limits (property)', () => {
    fc.assert(
      fc.property(form, fc.string({ maxLength: 4000 }), locale, (entries, message, lang) => {
        const { spec, content } = specAndContent(entries);
        const view = formModal(spec, {
          questionId: 'q',
          server: 'srv',
          message,
          ...(lang && { locale: lang }),
        });
        expect(slackIssues(view)).toEqual([]);
        const read = readSubmission(spec, stateFor(spec, view, content), lang ? { locale: lang } : {});
        expect(read).toEqual({ ok: true, content });
      }),
      { numRuns: 300 },
    );
  });

  it('a long form filled page by page, Next and merge, gives back exactly the answers (property)', () => {
    fc.assert(
      fc.property(formOf(60), locale, (entries, lang) => {
        const { spec, content } = specAndContent(entries);
        let stored: Content = {};
        for (let page = 0; page < pageCount(spec); page++) {
          const view = formModal(spec, {
            questionId: 'q',
            server: 'srv',
            message: 'm',
            page,
            answers: stored,
          });
          expect(slackIssues(view)).toEqual([]);
          const read = readSubmission(spec, stateFor(spec, view, content), {
            page,
            ...(lang && { locale: lang }),
          });
          if (!read.ok) throw new Error(JSON.stringify(read.errors));
          stored = mergePageContent(spec, stored, read.content, page);
        }
        expect(stored).toEqual(content);
      }),
      { numRuns: 40 },
    );
  });
});
