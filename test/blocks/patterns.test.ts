// A `pattern` in a requested schema or a tool's inputSchema is the sender's: read in an ECMA-262 reading (with the
// `u` flag, else without it, as Annex B allows), else left to the sender (the question still asked, the rest of the
// field's rules still held); and tested against a person's text bounded in time (blocks/patterns.ts), a test that
// runs out counting as no match. Before, a Python-dialect or Annex B pattern refused the whole elicitation, and a
// catastrophically backtracking one held the event loop for minutes: those tests fail by vitest's timeout.
import { describe, expect, it } from 'vitest';
import { formModal } from '../../blocks/modal.js';
import { ecmaRegExp, withPatternTimeouts } from '../../blocks/patterns.js';
import { readRunArguments } from '../../blocks/run-form.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { validationErrors } from '../../blocks/validate.js';
import type { Content } from '../../src/relay/types.js';
import { stateFor } from './testing.js';

/** Backtracks catastrophically on CATASTROPHIC: unbounded, ~40 s on the 2-core machine (doubling per 'a'). */
const REDOS = '^(a+)+$';
const CATASTROPHIC = `${'a'.repeat(30)}!`;
/** Far past a bounded test (50 ms, a few of them), far short of an unbounded one. */
const BOUNDED = { timeout: 5_000 };
const DOES_NOT_MATCH = 'Does not match the expected format';

const form = (properties: Record<string, unknown>) => ({ type: 'object', properties });

/** The field errors of submitting `answers` to the form of `schema`, read as the bot reads a submission. */
function submitted(schema: object, answers: Content): Record<string, string> {
  const spec = parseFormSchema(schema);
  const view = formModal(spec, { questionId: 'q1', server: 'srv', message: 'Reply' });
  const read = readSubmission(spec, stateFor(spec, view, answers));
  return read.ok ? {} : read.errors;
}

describe('ecmaRegExp', () => {
  it('reads with the u flag, else without it (Annex B), else not at all', () => {
    expect(ecmaRegExp('^\\p{L}+$')?.flags).toBe('u');
    for (const annexB of ['^[a-z\\_]+$', '^\\-$', 'a{']) expect(ecmaRegExp(annexB)?.flags, annexB).toBe('');
    for (const none of ['(?i)^abc$', '(?P<name>x)', '(', 'a**'])
      expect(ecmaRegExp(none), none).toBeUndefined();
  });
});

describe('an elicitation whose pattern ECMA-262 reads only without the u flag', () => {
  const schema = form({ code: { type: 'string', pattern: '^[a-z\\_]+$', default: 'a_b' } });

  it('is asked, its pattern checked that way: the usual "does not match" error', () => {
    expect(parseFormSchema(schema).fields[0]).toMatchObject({ pattern: '^[a-z\\_]+$', default: 'a_b' });
    expect(submitted(schema, { code: 'ABC' })).toEqual({ f0_code: DOES_NOT_MATCH });
    expect(submitted(schema, { code: 'x_y' })).toEqual({});
  });
});

describe('an elicitation whose pattern no ECMA-262 reading takes (the server’s own dialect)', () => {
  const schema = form({
    code: { type: 'string', pattern: '(?i)^[a-z]+$', maxLength: 5 },
    name: { type: 'string', pattern: '(?P<first>\\w+)' },
  });

  it('is asked: the field has no pattern check, and the rest of its rules hold', () => {
    const spec = parseFormSchema(schema);
    expect(spec.fields.map((f) => ('pattern' in f ? f.pattern : 'none'))).toEqual(['none', 'none']);
    expect(JSON.stringify(spec.schema)).not.toContain('pattern');
    expect(submitted(schema, { code: 'AB1', name: '!' })).toEqual({});
    expect(submitted(schema, { code: 'ABCDEF' })).toEqual({ f0_code: 'Must be at most 5 characters' });
  });
});

describe('a pattern that backtracks catastrophically, tested against a long answer', () => {
  const schema = form({ code: { type: 'string', pattern: REDOS }, other: { type: 'string', maxLength: 2 } });

  it('is bounded at submit: the answer does not match, the other fields are still checked', BOUNDED, () => {
    expect(submitted(schema, { code: CATASTROPHIC, other: 'abc' })).toEqual({
      f0_code: DOES_NOT_MATCH,
      f1_other: 'Must be at most 2 characters',
    });
    expect(submitted(schema, { code: 'aaa' })).toEqual({});
  });

  it(
    'is bounded in the review’s check of the whole draft, and reported once, without the answer',
    BOUNDED,
    () => {
      const spec = parseFormSchema(schema);
      const reported: string[] = [];
      const errors = withPatternTimeouts(
        (pattern) => reported.push(pattern),
        () => [1, 2].map(() => validationErrors(spec, { code: CATASTROPHIC })),
      );
      expect(errors).toEqual([{ f0_code: DOES_NOT_MATCH }, { f0_code: DOES_NOT_MATCH }]);
      expect(reported).toEqual([REDOS]);
    },
  );

  it('is bounded against the server’s own default, which is then not pre-filled', BOUNDED, () => {
    const field = parseFormSchema(form({ code: { type: 'string', pattern: REDOS, default: CATASTROPHIC } }));
    expect(field.fields[0]?.default).toBeUndefined();
  });

  it('is bounded in /mcp run’s JSON arguments, once for many items under it', BOUNDED, () => {
    const tool = {
      type: 'object',
      properties: {
        deep: { type: 'object' },
        list: { type: 'array', items: { type: 'string', pattern: REDOS } },
      },
    };
    const args = { list: Array.from({ length: 40 }, () => CATASTROPHIC) };
    const values = {
      mcp_run_json: { mcp_run_json: { type: 'plain_text_input', value: JSON.stringify(args) } },
    };
    const reported: string[] = [];
    const read = withPatternTimeouts(
      (pattern) => reported.push(pattern),
      () => readRunArguments(tool, values),
    );
    expect(JSON.stringify(read)).toContain('/list/0 must match pattern');
    expect(reported).toEqual([REDOS]);
  });
});
