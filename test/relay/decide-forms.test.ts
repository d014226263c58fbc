// The answering decision as a pure function, for a person filling in a form: one page, several pages, the
// review step, and the invariant that nothing invalid or unentered is ever accepted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFormSchema, validationErrors, type FormSpec } from '../../blocks/index.js';
import { decide, type Act, type AnswerPolicy } from '../../src/answering/decide.js';
import type { Content, Draft } from '../../src/relay/types.js';
import { AGE_COLOR } from '../support/schemas.js';
import { question, situation } from './decide-support.js';

const APPROVAL = {
  type: 'object',
  properties: { approve: { type: 'boolean', title: 'Approve the refund' } },
  required: ['approve'],
};
/** 25 required text fields: two pages (20 + 5). */
const LONG = {
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`q${i + 1}`, { type: 'string' }])),
  required: Array.from({ length: 25 }, (_, i) => `q${i + 1}`),
};

/** view.state.values of a form page where each named field holds `value` (text inputs and integers). */
function typed(spec: FormSpec, content: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    spec.fields
      .filter((f) => Object.hasOwn(content, f.name))
      .map((f) => [f.blockId, { [f.actionId]: { type: 'plain_text_input', value: content[f.name] } }]),
  );
}

const shown = (spec: FormSpec, page: number): string[] =>
  spec.fields.slice(page * 20, (page + 1) * 20).map((f) => f.blockId);

const draft = (page: number, answers: Content, reviewing = false): Draft => ({ page, answers, reviewing });

describe('a one-page form', () => {
  const q = question(AGE_COLOR);
  const spec = parseFormSchema(AGE_COLOR);
  const submit = (content: Record<string, string>): Act => ({
    kind: 'submit',
    values: typed(spec, content),
    shownBlockIds: shown(spec, 0),
  });

  it('opens a first time on page one with nothing entered', () => {
    expect(decide(situation(q, { kind: 'open' }))).toEqual({ kind: 'page', draft: draft(0, {}) });
  });

  // A draft exists only while the question is pending: a Respond again (another device, the App Home, a close
  // Slack never reported) shows what the person sent so far rather than throwing it away.
  it('opens again with the answers of the draft, back on the form from the review', () => {
    expect(decide(situation(q, { kind: 'open' }, { draft: draft(0, { age: 3 }, true) }))).toEqual({
      kind: 'page',
      draft: draft(0, { age: 3 }),
    });
  });

  it('accepts exactly what was entered', () => {
    expect(decide(situation(q, submit({ age: '41' })))).toEqual({
      kind: 'finish',
      outcome: { action: 'accept', content: { age: 41 } },
      reason: 'answered',
    });
  });

  it('answers field errors for what the schema refuses', () => {
    const decision = decide(situation(q, submit({ age: '-5' })));
    expect(decision).toEqual({
      kind: 'errors',
      errors: { [spec.fields[0]?.blockId ?? '']: 'Must be at least 0' },
    });
  });

  it('shows the review of the answers, kept in the draft, when the policy asks', () => {
    const policy: AnswerPolicy = { review: 'always', onClose: 'cancel' };
    expect(decide(situation(q, submit({ age: '7' }), { policy }))).toEqual({
      kind: 'review',
      draft: draft(0, { age: 7 }, true),
    });
  });

  it('reviews a form that approves something under review: auto', () => {
    const approval = question(APPROVAL);
    const approvalSpec = parseFormSchema(APPROVAL);
    const [field] = approvalSpec.fields;
    const values = {
      [field?.blockId ?? '']: { [field?.actionId ?? '']: { selected_option: { value: 'yes' } } },
    };
    const act: Act = { kind: 'submit', values, shownBlockIds: shown(approvalSpec, 0) };
    expect(decide(situation(approval, act, { policy: { review: 'auto', onClose: 'cancel' } }))).toMatchObject(
      {
        kind: 'review',
        draft: { answers: { approve: true }, reviewing: true },
      },
    );
  });

  it('sends from the review the reviewed draft, never anything else', () => {
    expect(decide(situation(q, { kind: 'send' }, { draft: draft(0, { age: 7 }, true) }))).toEqual({
      kind: 'finish',
      outcome: { action: 'accept', content: { age: 7 } },
      reason: 'answered',
    });
  });

  it('sends a Send without a reviewed draft (a forged review) back to the form', () => {
    expect(decide(situation(q, { kind: 'send' }))).toEqual({ kind: 'page', draft: draft(0, {}) });
    expect(decide(situation(q, { kind: 'send' }, { draft: draft(0, { age: 7 }) }))).toEqual({
      kind: 'page',
      draft: draft(0, { age: 7 }),
    });
  });

  it('sends a reviewed draft that fails the schema back to its page with the errors', () => {
    const decision = decide(situation(q, { kind: 'send' }, { draft: draft(0, { color: 'purple' }, true) }));
    expect(decision).toMatchObject({ kind: 'page', draft: draft(0, { color: 'purple' }) });
    expect(Object.keys(decision.kind === 'page' ? (decision.errors ?? {}) : {})).toEqual(
      spec.fields.map((f) => f.blockId),
    );
  });
});

describe('a paged form', () => {
  const q = question(LONG);
  const spec = parseFormSchema(LONG);
  const all = (from: number, to: number): Record<string, string> =>
    Object.fromEntries(Array.from({ length: to - from + 1 }, (_, i) => [`q${from + i}`, `a${from + i}`]));

  it('moves to the next page with the answers kept in the draft', () => {
    const act: Act = { kind: 'submit', values: typed(spec, all(1, 20)), shownBlockIds: shown(spec, 0) };
    expect(decide(situation(q, act))).toEqual({ kind: 'page', draft: draft(1, all(1, 20)) });
  });

  it('accepts every page once the last one is in', () => {
    const act: Act = { kind: 'submit', values: typed(spec, all(21, 25)), shownBlockIds: shown(spec, 1) };
    expect(decide(situation(q, act, { draft: draft(1, all(1, 20)) }))).toEqual({
      kind: 'finish',
      outcome: { action: 'accept', content: all(1, 25) },
      reason: 'answered',
    });
  });

  it("takes a page other than the draft's (an older modal) with what it holds", () => {
    const act: Act = { kind: 'submit', values: typed(spec, all(21, 25)), shownBlockIds: shown(spec, 1) };
    expect(decide(situation(q, act, { draft: draft(0, all(1, 20)) }))).toEqual({
      kind: 'finish',
      outcome: { action: 'accept', content: all(1, 25) },
      reason: 'answered',
    });
    const overFresh = decide(situation(q, act));
    expect(overFresh).toMatchObject({ kind: 'page', draft: draft(0, all(21, 25)) });
  });

  it('shows the draft when the screen holds no page of the form whole (a forged view)', () => {
    const act: Act = {
      kind: 'submit',
      values: typed(spec, all(1, 20)),
      shownBlockIds: shown(spec, 0).slice(1),
    };
    expect(decide(situation(q, act, { draft: draft(1, all(1, 20)) }))).toEqual({
      kind: 'page',
      draft: draft(1, all(1, 20)),
    });
  });

  it('sends an unfilled earlier page back with its errors instead of accepting', () => {
    const act: Act = { kind: 'submit', values: typed(spec, all(21, 25)), shownBlockIds: shown(spec, 1) };
    const decision = decide(situation(q, act, { draft: draft(1, {}) }));
    expect(decision).toMatchObject({ kind: 'page', draft: draft(0, all(21, 25)) });
    expect(Object.keys(decision.kind === 'page' ? (decision.errors ?? {}) : {})).toHaveLength(20);
  });

  const back = (values: Record<string, string>, page: number): Act => ({
    kind: 'back',
    values: typed(spec, values),
    shownBlockIds: shown(spec, page),
  });

  it('goes Back one page, keeping the answers and what the page on screen holds', () => {
    const stored = draft(1, { ...all(1, 20), q22: 'sent', q23: 'sent' });
    // q21 typed, q22 emptied, q23 not in the view's state (kept as sent).
    const decision = decide(situation(q, back({ q21: 'typed', q22: '' }, 1), { draft: stored }));
    expect(decision).toEqual({ kind: 'page', draft: draft(0, { ...all(1, 20), q21: 'typed', q23: 'sent' }) });
  });

  it("goes Back from an older modal's page with what it holds", () => {
    const decision = decide(situation(q, back({ q21: 'typed' }, 1), { draft: draft(0, all(1, 20)) }));
    expect(decision).toEqual({ kind: 'page', draft: draft(0, { ...all(1, 20), q21: 'typed' }) });
  });

  it('goes Back from a forged view one page, changing no answer', () => {
    const act: Act = { kind: 'back', values: typed(spec, { q21: 'x' }), shownBlockIds: [] };
    expect(decide(situation(q, act, { draft: draft(1, all(1, 20)) }))).toEqual({
      kind: 'page',
      draft: draft(0, all(1, 20)),
    });
  });

  it('opens again on the page the person was on, with every answer sent (onClose: keep)', () => {
    const policy: AnswerPolicy = { review: 'never', onClose: 'keep' };
    const act: Act = { kind: 'submit', values: typed(spec, all(1, 20)), shownBlockIds: shown(spec, 0) };
    const next = decide(situation(q, act, { policy }));
    expect(next).toEqual({ kind: 'page', draft: draft(1, all(1, 20)) });
    const sent = next.kind === 'page' ? next.draft : undefined;
    const close: Act = { kind: 'close', from: 'form', cleared: false };
    expect(decide(situation(q, close, { policy, draft: sent }))).toEqual({ kind: 'ignore' });
    expect(decide(situation(q, { kind: 'open' }, { policy, draft: sent }))).toEqual({
      kind: 'page',
      draft: draft(1, all(1, 20)),
    });
  });
});

describe('Back on a page with rules', () => {
  /** 20 text fields, then an integer of at least 0 and an integer on page two. */
  const RULES = {
    type: 'object',
    properties: {
      ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`q${i + 1}`, { type: 'string' }])),
      n: { type: 'integer', minimum: 0 },
      m: { type: 'integer' },
    },
    required: ['n'],
  };
  const q = question(RULES);
  const spec = parseFormSchema(RULES);

  it('keeps what reads as its type, rules broken or not, with no errors; an unreadable input keeps its answer', () => {
    const act: Act = {
      kind: 'back',
      values: typed(spec, { n: '-5', m: '1.5' }),
      shownBlockIds: shown(spec, 1),
    };
    expect(decide(situation(q, act, { draft: draft(1, { q1: 'a', m: 2 }) }))).toEqual({
      kind: 'page',
      draft: draft(0, { q1: 'a', n: -5, m: 2 }),
    });
  });
});

describe('whatever the person does', () => {
  const schemas = [AGE_COLOR, LONG, APPROVAL];
  const value = fc.oneof(fc.constantFrom('red', 'purple', '-5', '3', '', 'yes'), fc.string({ maxLength: 4 }));
  const answers = fc.dictionary(
    fc.constantFrom('age', 'color', 'approve', 'q1', 'q21', 'q25', 'extra'),
    fc.oneof(value, fc.integer(), fc.boolean()),
  );
  const act = fc.oneof(
    fc.constant<Act>({ kind: 'send' }),
    fc.record({
      back: fc.boolean(),
      page: fc.nat(2),
      values: fc.dictionary(fc.constantFrom('age', 'color', 'q1', 'q21', 'q25'), value),
    }),
  );

  it('accepts only content that the whole schema accepts, of fields the form has', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...schemas),
        act,
        fc.option(fc.record({ page: fc.nat(2), answers, reviewing: fc.boolean() }), { nil: undefined }),
        fc.constantFrom<AnswerPolicy['review']>('always', 'never', 'auto'),
        (schema, drawn, stored, review) => {
          const spec = parseFormSchema(schema);
          const input: Act =
            'kind' in drawn
              ? drawn
              : {
                  kind: drawn.back ? 'back' : 'submit',
                  values: typed(spec, drawn.values),
                  shownBlockIds: shown(spec, drawn.page),
                };
          const storedDraft = stored as Draft | undefined;
          const decision = decide(
            situation(question(schema), input, { draft: storedDraft, policy: { review, onClose: 'cancel' } }),
          );
          if (decision.kind !== 'finish' || decision.outcome.action !== 'accept') return;
          expect(validationErrors(spec, decision.outcome.content)).toEqual({});
          const names = spec.fields.map((f) => f.name);
          expect(Object.keys(decision.outcome.content).every((k) => names.includes(k))).toBe(true);
        },
      ),
      // Once found: a reviewed draft holding a key the form does not have (only Redis could hold it).
      {
        numRuns: 300,
        examples: [
          [AGE_COLOR, { kind: 'send' }, { page: 0, answers: { age: 0, q25: 0 }, reviewing: true }, 'always'],
        ],
      },
    );
  });
});
