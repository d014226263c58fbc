// `/mcp run <server> <tool> {JSON}`'s check and refusal attacked as a hostile MCP server or a careless person would:
// property names Object.prototype also has, arguments nested deep under a recursive schema, refusals built from
// long or escaping-heavy names and values, and branches of a oneOf reached through `$ref` (as Pydantic writes them).
import { describe, expect, it } from 'vitest';
import {
  checkInlineArguments,
  inlineArgumentsRefusal,
  type ArgumentProblem,
} from '../../blocks/inline-args.js';
import { readRunArguments, RUN_JSON_BLOCK } from '../../blocks/run-form.js';
import { MESSAGE_TEXT_ADVISED_MAX } from '../../blocks/slack-limits.js';

const object = (properties: Record<string, unknown>, extra: object = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

function problemsOf(schema: object, args: object): ArgumentProblem[] {
  const check = checkInlineArguments(schema, args);
  if (check.verdict !== 'invalid') throw new Error(`expected invalid, got ${check.verdict}`);
  return check.problems;
}

describe('a tool whose arguments are named as Object.prototype’s members', () => {
  const schema = object({ constructor: { type: 'string' }, toString: { type: 'string' } });

  it('runs with them left out: an argument not typed is not checked, inline or in the JSON field', () => {
    expect(checkInlineArguments(schema, {})).toEqual({ verdict: 'pass' });
    const values = { [RUN_JSON_BLOCK]: { [RUN_JSON_BLOCK]: { value: '{}' } } };
    expect(readRunArguments(schema, values)).toEqual({ ok: true, args: {} });
  });

  it('is still refused when one is required and missing, or typed wrongly', () => {
    const required = { ...schema, required: ['constructor'] };
    expect(problemsOf(required, {})).toEqual([{ path: '/constructor', message: 'This field is required' }]);
    expect(problemsOf(schema, { toString: 5 })).toEqual([{ path: '/toString', message: 'Must be a string' }]);
  });
});

describe('arguments nested deeper than a recursive schema can be checked', () => {
  // Each level of the list goes through a chain of $refs, as a Pydantic model with optional nested models does.
  const $defs: Record<string, object> = { d8: { type: 'array', items: { $ref: '#/$defs/d0' } } };
  for (let i = 0; i < 8; i += 1)
    $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { type: 'null' }] };
  const schema = { type: 'object', $defs, properties: { tree: { $ref: '#/$defs/d0' } } };
  const nested = (depth: number): object => {
    const tree: unknown = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    return { tree };
  };

  it('are checked when shallow, and left unchecked (sent as typed, as before) rather than throwing', () => {
    expect(checkInlineArguments(schema, nested(50))).toEqual({ verdict: 'pass' });
    expect(checkInlineArguments(schema, nested(1600))).toEqual({ verdict: 'unchecked' });
    const values = { [RUN_JSON_BLOCK]: { [RUN_JSON_BLOCK]: { value: JSON.stringify(nested(1600)) } } };
    expect(readRunArguments(schema, values)).toMatchObject({ ok: true });
  });
});

describe('the refusal of arguments whose names and values a server made long and full of mrkdwn', () => {
  const amps = '&'.repeat(300);
  const names = Array.from({ length: 12 }, (_, i) => `${amps}<!channel>\n*${i}*`);
  const values = Array.from({ length: 12 }, (_, j) => `${'&'.repeat(80)}${j}`);
  const schema = object(Object.fromEntries(names.map((name) => [name, { enum: values }])));
  const args = Object.fromEntries(names.map((name) => [name, 'no']));
  // A tool name as long as the caller shows one (src/slack/inline-args.ts: 200 characters once escaped).
  const longTool = `\`${'&amp;'.repeat(40)}\``;

  for (const locale of ['en', 'zh-CN'] as const) {
    it(`fits a message Slack shows whole (${locale}), each shown line whole, the others counted`, () => {
      const check = checkInlineArguments(schema, args, locale);
      if (check.verdict !== 'invalid') throw new Error(check.verdict);
      const text = inlineArgumentsRefusal({
        tool: longTool,
        server: '`srv`',
        problems: check.problems,
        formCommand: '`/mcp run srv t`',
        locale,
      });
      expect(text.length).toBeLessThanOrEqual(MESSAGE_TEXT_ADVISED_MAX);
      const lines = text.split('\n');
      const shown = lines.filter((line) => line.startsWith('• '));
      expect(shown.length).toBeGreaterThan(0);
      // What is not listed is counted, so nothing is silently left out.
      expect(text).toContain(
        locale === 'en' ? `${12 - shown.length} more problems` : `${12 - shown.length} 处问题`,
      );
      // Every entity whole, no mention or link Slack would act on, one problem per line.
      expect(text).not.toMatch(/&(?!amp;|lt;|gt;)|<|>/);
      for (const line of shown) expect(line.match(/`/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    });
  }
});

describe('a oneOf whose forms are $refs (Pydantic’s discriminated unions)', () => {
  const $defs: Record<string, object> = {};
  for (let i = 0; i < 30; i += 1)
    $defs[`Kind${i}`] = object({ [`k${i}`]: { const: i } }, { required: [`k${i}`] });
  const oneOf = Object.keys($defs).map((name) => ({ $ref: `#/$defs/${name}` }));
  const schema = object({ x: { oneOf }, y: { $ref: '#/$defs/Kind0' } }, { $defs });

  it('is refused as matching none of its forms, as an inline oneOf is, not with each form’s own errors', () => {
    expect(problemsOf(schema, { x: {} })).toEqual([
      { path: '/x', message: 'Does not match any of the forms the tool’s schema allows' },
    ]);
  });

  it('still names the errors of a $ref outside any oneOf', () => {
    expect(problemsOf(schema, { x: { k1: 1 }, y: {} })).toEqual([
      { path: '/y/k0', message: 'This field is required' },
    ]);
  });
});
