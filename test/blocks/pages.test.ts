import { describe, expect, it } from 'vitest';
import type { Content } from '../../src/relay/types.js';
import { PAGE_BACK_ACTION } from '../../blocks/ids.js';
import { formModal, questionIdOf } from '../../blocks/modal.js';
import { PageError, mergePageContent, pageCount, pageFields } from '../../blocks/pages.js';
import { PAGE_FIELDS, parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { slackIssues, stateFor } from './testing.js';

const formOf = (n: number, required: string[] = []) =>
  parseFormSchema({
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }])),
    required,
  });
const meta = { questionId: 'q1', server: 'srv', message: 'Long form' };
const inputs = (view: { blocks: object[] }) =>
  view.blocks.filter((b) => (b as { type: string }).type === 'input') as { block_id: string }[];

describe('page splitting', () => {
  it(`splits a form into pages of ${PAGE_FIELDS} fields`, () => {
    const spec = formOf(45);
    expect(pageCount(spec)).toBe(3);
    expect([0, 1, 2].map((p) => pageFields(spec, p).length)).toEqual([20, 20, 5]);
    expect(pageFields(spec, 2)[0]?.name).toBe('p40');
    expect(pageCount(formOf(20))).toBe(1);
    expect(pageCount(formOf(0))).toBe(1);
  });

  it('refuses a page the form does not have', () => {
    expect(() => pageFields(formOf(21), 2)).toThrow(PageError);
    expect(() => formModal(formOf(5), { ...meta, page: 1 })).toThrow(PageError);
  });
});

describe('paged modal', () => {
  const spec = formOf(45);
  const views = [0, 1, 2].map((page) => formModal(spec, { ...meta, page }));

  it('shows one page at a time with Next until the last page, which sends', () => {
    for (const view of views) expect(slackIssues(view)).toEqual([]);
    expect(views.map((v) => inputs(v).length)).toEqual([20, 20, 5]);
    expect(views.map((v) => v.submit.text)).toEqual(['Next', 'Next', 'Send']);
    expect(JSON.stringify(views[1]?.blocks[0])).toContain('Page 2 of 3');
  });

  it("carries the question alone in private_metadata: the page is the bot's own state (a forged one changes nothing)", () => {
    expect(views.map((v) => JSON.parse(v.private_metadata) as unknown)).toEqual([
      { q: 'q1' },
      { q: 'q1' },
      { q: 'q1' },
    ]);
    expect(questionIdOf(views[2] ?? {})).toBe('q1');
    expect(formModal(formOf(3), meta).private_metadata).toBe('{"q":"q1"}');
  });

  it('shows the errors it is given under their fields', () => {
    const spec = formOf(3);
    const [first, second] = spec.fields;
    const view = formModal(spec, { ...meta, errors: { [second?.blockId ?? '']: 'This field is required.' } });
    const blocks = view.blocks as { type: string; block_id?: string }[];
    const at = blocks.findIndex((b) => b.block_id === second?.blockId);
    expect(JSON.stringify(blocks[at + 1])).toContain('This field is required.');
    expect(blocks[blocks.findIndex((b) => b.block_id === first?.blockId) + 1]?.type).toBe('input');
    expect(slackIssues(view)).toEqual([]);
  });

  it('has a Back button on every page but the first', () => {
    const back = (v: { blocks: object[] }) => JSON.stringify(v.blocks).includes(PAGE_BACK_ACTION);
    expect(views.map(back)).toEqual([false, true, true]);
  });

  it('pre-fills answers given earlier instead of the defaults', () => {
    const typed = parseFormSchema({
      type: 'object',
      properties: { a: { type: 'string', default: 'd' }, n: { type: 'integer' }, b: { type: 'boolean' } },
    });
    const view = formModal(typed, { ...meta, answers: { a: 'mine', n: 7, b: 'wrong type' } });
    const elements = view.blocks
      .slice(2)
      .map((b) => (b as unknown as { element: Record<string, unknown> }).element);
    expect(elements.map((e) => e.initial_value ?? e.initial_option)).toEqual(['mine', '7', undefined]);
  });
});

describe('reading a page', () => {
  const spec = formOf(25, ['p0', 'p24']);

  it('validates only the fields of that page', () => {
    expect(readSubmission(spec, {}, { page: 0 })).toEqual({
      ok: false,
      errors: { f0_p0: 'This field is required' },
    });
    const first = formModal(spec, { ...meta, page: 0 });
    expect(
      readSubmission(spec, stateFor(spec, first, { p0: 'a', p3: 'b', p24: 'ignored' }), { page: 0 }),
    ).toEqual({
      ok: true,
      content: { p0: 'a', p3: 'b' },
    });
  });

  it('merges page answers into the stored ones, dropping fields left empty this time', () => {
    const stored: Content = { p0: 'a', p3: 'old', p24: 'z' };
    expect(mergePageContent(spec, stored, { p0: 'a2', p5: 'new' }, 0)).toEqual({
      p0: 'a2',
      p5: 'new',
      p24: 'z',
    });
    expect(Object.keys(mergePageContent(spec, { p24: 'z' }, { p1: 'x' }, 0))).toEqual(['p1', 'p24']);
  });

  it('page by page, Next and merge give the whole content, which validates', () => {
    const answers: Content = { p0: 'first', p7: 'seven', p24: 'last' };
    let stored: Content = {};
    for (let page = 0; page < pageCount(spec); page++) {
      const view = formModal(spec, { ...meta, page, answers: stored });
      const read = readSubmission(spec, stateFor(spec, view, answers), { page });
      if (!read.ok) throw new Error(JSON.stringify(read.errors));
      stored = mergePageContent(spec, stored, read.content, page);
    }
    expect(stored).toEqual(answers);
  });
});
