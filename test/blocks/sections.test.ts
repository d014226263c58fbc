// A form of several requests (FormSpec.sections, the x-elicit-relay-sections keyword): each request's part is
// titled with its message, a part running over a page break is titled again, and a field's error shows in its
// own part; a keyword that does not cover the properties in order is refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../blocks/i18n.js';
import { formModal } from '../../blocks/modal.js';
import { pageCount } from '../../blocks/pages.js';
import { MAX_SECTIONS, parseFormSchema, SchemaError } from '../../blocks/schema.js';
import { VIEW_BYTES_MAX } from '../../blocks/slack-limits.js';
import { FORM_SECTIONS_KEYWORD } from '../../src/relay/types.js';
import { slackIssues } from './testing.js';

/** A combined schema of `sizes.length` requests, request n asking `sizes[n]` text fields. */
function sectioned(sizes: number[]) {
  const parts = sizes.map((size, n) => ({
    message: `Request ${n + 1}?`,
    properties: Array.from({ length: size }, (_, i) => `${n + 1}.f${i}`),
  }));
  const names = parts.flatMap((part) => part.properties);
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
    'x-elicit-relay-sections': parts,
  };
}
const meta = { questionId: 'q1', server: 'srv', message: 'all of them' };
type Block = { type: string; text?: { text: string }; block_id?: string; elements?: { text: string }[] };
/** The view's headers and inputs in order: "# message" or the input's block id. */
const outline = (view: { blocks: object[] }) =>
  (view.blocks as Block[]).flatMap((b) =>
    b.type === 'header' ? [`# ${b.text?.text ?? ''}`] : b.type === 'input' ? [b.block_id ?? ''] : [],
  );

describe('a form with a section per request', () => {
  it('titles each request’s fields with its message, and leaves out the question’s own message', () => {
    const view = formModal(parseFormSchema(sectioned([1, 2])), meta);
    expect(outline(view)).toEqual(['# Request 1?', 'f0_1_f0', '# Request 2?', 'f1_2_f0', 'f2_2_f1']);
    expect(JSON.stringify(view)).not.toContain('all of them');
    expect(slackIssues(view)).toEqual([]);
  });

  it('titles a request again on the next page when its fields run over the page break', () => {
    const spec = parseFormSchema(sectioned([15, 10]));
    const second = outline(formModal(spec, { ...meta, page: 1 }));
    expect(second[0]).toBe('# Request 2?');
    expect(second).toHaveLength(1 + 5);
    expect(outline(formModal(spec, meta)).filter((line) => line.startsWith('#'))).toEqual([
      '# Request 1?',
      '# Request 2?',
    ]);
  });

  it('shows a request that asks no field as its title alone', () => {
    expect(outline(formModal(parseFormSchema(sectioned([0, 1])), meta))).toEqual([
      '# Request 1?',
      '# Request 2?',
      'f0_2_f0',
    ]);
  });

  it('shows a field’s error under that field, inside its request’s section', () => {
    const view = formModal(parseFormSchema(sectioned([1, 1])), { ...meta, errors: { f1_2_f0: 'Too short' } });
    expect((view.blocks as Block[]).slice(-3).map((b) => b.type)).toEqual(['header', 'input', 'context']);
    const last = view.blocks.at(-1) as Block;
    expect(last.elements?.[0]?.text).toContain('Too short');
    expect(outline(view).at(-2)).toBe('# Request 2?');
  });

  it(`keeps ${MAX_SECTIONS} sections of a full page with every field in error within Slack’s block limit`, () => {
    const spec = parseFormSchema(sectioned(Array.from({ length: MAX_SECTIONS }, () => 1)));
    const errors = Object.fromEntries(spec.fields.map((f) => [f.blockId, 'wrong']));
    const long = { ...spec, sections: spec.sections?.map((s) => ({ ...s, message: 'x '.repeat(200) })) };
    const view = formModal(long, { ...meta, errors });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(slackIssues(view)).toEqual([]);
  });

  it('refuses sections that skip, reorder or repeat a property, or are too many', () => {
    const schema = sectioned([1, 1]);
    const [a, b] = schema['x-elicit-relay-sections'];
    const refused = (parts: unknown) => () =>
      parseFormSchema({ ...schema, 'x-elicit-relay-sections': parts });
    expect(refused([a])).toThrow(SchemaError);
    expect(refused([b, a])).toThrow(SchemaError);
    expect(refused([a, a, b])).toThrow(SchemaError);
    expect(refused([])).toThrow(SchemaError);
    expect(
      refused(Array.from({ length: MAX_SECTIONS + 1 }, () => ({ message: 'x', properties: [] }))),
    ).toThrow(/at most 20/);
  });
});

const bytesOf = (view: object) => new TextEncoder().encode(JSON.stringify(view)).length;
/** A count up to `max`, `max` itself as often as not: the largest texts and forms are the ones that could overflow. */
const upTo = (max: number) => fc.oneof(fc.constant(max), fc.nat(max));
/**
 * Text of up to 3 runs, each one character repeated: mostly 3-byte CJK (the most bytes a UTF-16 unit can take),
 * else characters that escaping or JSON make longer (&, <, "), emoji, newlines, or control characters.
 */
const heavyText = (maxRun: number) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.constant('详') },
          fc.constantFrom('&', '"', '<', '😀', '\u0001', '\n', 'a'),
        ),
        upTo(maxRun),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((runs) => runs.map(([char, n]) => char.repeat(n)).join(''));

describe('a sectioned form within Slack’s view size', () => {
  it('keeps a page of 20 long requests, each with a long-described field, within 250 kB', () => {
    const names = Array.from({ length: 20 }, (_, i) => `${i}.f`);
    const properties = Object.fromEntries(
      names.map((name) => [name, { type: 'string', description: '说明'.repeat(500) }]),
    );
    const sections = names.map((name) => ({
      message: `${'请'.repeat(150)}\n${'详细'.repeat(1500)}`,
      properties: [name],
    }));
    const spec = parseFormSchema({ type: 'object', properties, [FORM_SECTIONS_KEYWORD]: sections });
    const view = formModal(spec, { questionId: 'Q1', server: 'srv', message: 'm' });
    expect(bytesOf(view)).toBeLessThanOrEqual(VIEW_BYTES_MAX);
    expect(slackIssues(view)).toEqual([]);
  });

  it('keeps every page of any sectioned form the parser accepts within 250 kB and Slack’s limits (property)', () => {
    const field = fc.record({ title: heavyText(300), description: heavyText(2000), secret: fc.boolean() });
    const part = fc.record({ message: heavyText(4000), fields: fc.array(field, { maxLength: 2 }) });
    const form = upTo(MAX_SECTIONS - 1).chain((n) => fc.array(part, { minLength: n + 1, maxLength: n + 1 }));
    const locale = fc.constantFrom<Locale | undefined>(undefined, 'zh-CN');
    fc.assert(
      fc.property(form, locale, (parts, lang) => {
        const named = parts.map((p, s) =>
          p.fields.map((f, i) => ({ ...f, name: `${f.secret ? 'password' : 'f'}_${s}_${i}` })),
        );
        const properties = Object.fromEntries(
          named.flat().map((f) => [f.name, { type: 'string', title: f.title, description: f.description }]),
        );
        const sections = parts.map((p, s) => ({
          message: p.message,
          properties: named[s]?.map((f) => f.name),
        }));
        let spec;
        try {
          spec = parseFormSchema({ type: 'object', properties, [FORM_SECTIONS_KEYWORD]: sections });
        } catch (error) {
          // Fields too large for a page are refused by the parser: not a form the engine draws.
          if (error instanceof SchemaError && /too large/.test(error.message)) return;
          throw error;
        }
        const errors = Object.fromEntries(
          spec.fields.map((f) => [f.blockId, 'Must be at most 10 characters']),
        );
        for (let page = 0; page < pageCount(spec); page++) {
          const view = formModal(spec, { ...meta, page, errors, ...(lang && { locale: lang }) });
          expect(bytesOf(view)).toBeLessThanOrEqual(VIEW_BYTES_MAX);
          expect(slackIssues(view)).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  });
});
