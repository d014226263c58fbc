// `/mcp run <server> <tool> {JSON}`'s check of its inline arguments against the tool's inputSchema (the arguments
// form's validator), and the answer naming each failing argument by its JSON Pointer, in English and Chinese.
import { describe, expect, it } from 'vitest';
import {
  ARGUMENT_PROBLEMS_SHOWN,
  checkInlineArguments,
  inlineArgumentsRefusal,
  type ArgumentProblem,
} from '../../blocks/inline-args.js';
import { INLINE_ARGS_TEXT } from '../../blocks/i18n-inline-args.js';

/** The problems of `args`, path → message; fails the test when the arguments are not refused. */
function problemsOf(schema: object, args: object, locale?: 'en' | 'zh-CN'): Record<string, string> {
  const check = checkInlineArguments(schema, args, locale);
  if (check.verdict !== 'invalid') throw new Error(`expected invalid, got ${check.verdict}`);
  return Object.fromEntries(check.problems.map((p) => [p.path, p.message]));
}

describe('checkInlineArguments', () => {
  it('names a missing or forbidden property by its own JSON Pointer, `~` and `/` escaped', () => {
    const schema = {
      type: 'object',
      properties: { 'a/b~c': { type: 'string' }, deep: { type: 'object', additionalProperties: false } },
      required: ['a/b~c'],
    };
    expect(problemsOf(schema, { deep: { 'x/y': 1 } })).toEqual({
      '/a~1b~0c': 'This field is required',
      '/deep/x~1y': 'Not allowed here: the tool’s schema does not take it',
    });
  });

  it('says an anyOf or oneOf matched none, or several, rather than each form’s own errors', () => {
    const schema = {
      type: 'object',
      properties: {
        x: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        y: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
      },
    };
    expect(problemsOf(schema, { x: true, y: 3 })).toEqual({
      '/x': 'Does not match any of the forms the tool’s schema allows',
      '/y': 'Matches more than one of the forms the tool’s schema allows; it must match exactly one',
    });
  });

  it('names the types a value must be, a dependency, and the whole arguments object by the empty pointer', () => {
    const schema = {
      type: 'object',
      properties: { z: { type: ['string', 'null'] }, flag: { type: 'boolean' } },
      dependencies: { z: ['reason'] },
      minProperties: 3,
    };
    expect(problemsOf(schema, { z: 1, flag: 'yes' })).toEqual({
      '': 'Does not meet the schema’s `minProperties`',
      '/z': 'Must be a string or null',
      '/flag': 'Must be true or false',
      '/reason': 'Required when `z` is given',
    });
  });

  it('writes Chinese for a Chinese reader', () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'integer', maximum: 3 }, tags: { type: 'array', minItems: 2 } },
    };
    expect(problemsOf(schema, { n: 4, tags: [] }, 'zh-CN')).toEqual({
      '/n': '必须最多为 3',
      '/tags': '至少需要 2 项',
    });
  });

  it('checks a pattern the bot can read and leaves one in the server’s own dialect to the server', () => {
    const schema = {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[a-z]+$' },
        py: { type: 'string', pattern: '(?i)^x$' },
      },
    };
    expect(problemsOf(schema, { code: 'A1', py: 'anything' })).toEqual({
      '/code': 'Does not match the expected format',
    });
  });

  it('passes good arguments without changing them: no default added, no type coerced', () => {
    const schema = {
      type: 'object',
      properties: { count: { type: 'integer', default: 5 }, label: { type: 'string', default: 'x' } },
      additionalProperties: false,
    };
    const args = { count: 2 };
    expect(checkInlineArguments(schema, args)).toEqual({ verdict: 'pass' });
    expect(args).toEqual({ count: 2 });
    expect(checkInlineArguments(schema, { count: '2' }).verdict).toBe('invalid');
  });

  it('leaves a schema it cannot compile unchecked, and refuses a malformed one, naming the property', () => {
    const opaque = { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } };
    expect(checkInlineArguments(opaque, { a: 1 })).toEqual({ verdict: 'unchecked' });
    const malformed = { type: 'object', properties: { n: { type: 'integer', minimum: '1' } } };
    const check = checkInlineArguments(malformed, { n: 2 });
    expect(check.verdict).toBe('malformed');
    expect(check.verdict === 'malformed' && check.problem.message).toContain(
      'property "n": "minimum" must be number',
    );
  });
});

describe('inlineArgumentsRefusal', () => {
  const problems: ArgumentProblem[] = Array.from({ length: ARGUMENT_PROBLEMS_SHOWN + 2 }, (_, i) => ({
    path: `/a${i}`,
    message: 'This field is required',
  }));

  it('lists the first problems, counts the rest, and says how to fix them, the form among the ways', () => {
    const text = inlineArgumentsRefusal({
      tool: '`t`',
      server: '`s`',
      problems: [{ path: '', message: 'Does not meet the schema’s `not`' }, ...problems],
      formCommand: '`/mcp run s t`',
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      '`t` on `s` was not run: its arguments do not match the tool’s input schema. Nothing was sent to `s`.',
    );
    expect(lines[1]).toBe('• the arguments: Does not meet the schema’s `not`');
    expect(lines[2]).toBe('• `/a0`: This field is required');
    expect(lines).toHaveLength(1 + ARGUMENT_PROBLEMS_SHOWN + 2);
    expect(lines.at(-2)).toBe('…and 3 more problems.');
    expect(lines.at(-1)).toContain('or run `/mcp run s t` without arguments to fill them in a form');
  });

  it('escapes a typed path for mrkdwn and keeps it in one code span', () => {
    const text = inlineArgumentsRefusal({
      tool: '`t`',
      server: '`s`',
      problems: [{ path: '/<!here>`x', message: 'm' }],
      formCommand: '`/mcp run s t`',
      locale: 'zh-CN',
    });
    expect(text).toContain("• `/&lt;!here&gt;'x`：m");
    expect(text).toContain('未运行 `s` 上的 `t`');
  });

  it('has the same keys in English and Chinese', () => {
    expect(Object.keys(INLINE_ARGS_TEXT['zh-CN']).sort()).toEqual(Object.keys(INLINE_ARGS_TEXT.en).sort());
  });
});
