import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  RUN_FORM_CALLBACK,
  RUN_JSON_BLOCK,
  loadingModal,
  noticeModal,
  readRunArguments,
  runFormModal,
  runFormSpec,
  runTargetOf,
  toolSchemaProblem,
} from '../../blocks/run-form.js';
import { stateFor, slackIssues } from './testing.js';

const flat = {
  type: 'object',
  $schema: 'http://json-schema.org/draft-07/schema#',
  properties: { title: { type: 'string', minLength: 2 }, count: { type: 'integer', default: 1 } },
  required: ['title'],
  additionalProperties: false,
};
const nested = {
  type: 'object',
  properties: { target: { type: 'object', properties: { env: { type: 'string' } }, required: ['env'] } },
  required: ['target'],
};
const json = (text: string) => ({
  [RUN_JSON_BLOCK]: { [RUN_JSON_BLOCK]: { type: 'plain_text_input', value: text } },
});

describe('runFormModal', () => {
  it('renders a flat inputSchema with the form engine, keeping the server and tool in private_metadata', () => {
    const view = runFormModal({
      server: 'gh',
      tool: 'create_issue',
      description: 'Opens <!here>',
      inputSchema: flat,
    });
    expect(slackIssues(view)).toEqual([]);
    expect(view.callback_id).toBe(RUN_FORM_CALLBACK);
    expect(runTargetOf(view)).toEqual({ server: 'gh', tool: 'create_issue', inputSchema: flat });
    expect(view.blocks.filter((b) => (b as { type: string }).type === 'input')).toHaveLength(2);
    expect(JSON.stringify(view.blocks)).toContain('Opens &lt;!here&gt;');
  });

  it('leaves the schema out of private_metadata when it would not fit, keeping the conversation', () => {
    const big = { type: 'object', properties: { a: { type: 'string', description: 'd'.repeat(4000) } } };
    const view = runFormModal({ server: 'gh', tool: 't', inputSchema: big, channel: 'C0TEAM' });
    expect(view.private_metadata?.length).toBeLessThanOrEqual(3000);
    expect(runTargetOf(view)).toEqual({ server: 'gh', tool: 't', channel: 'C0TEAM' });
  });

  it('falls back to one JSON field, prefilled from defaults, for schemas the form engine cannot render', () => {
    expect(runFormSpec(nested)).toBeUndefined();
    const view = runFormModal({
      server: 'ops',
      tool: 'deploy',
      inputSchema: {
        ...nested,
        properties: { ...nested.properties, dry: { type: 'boolean', default: true } },
      },
      locale: 'zh-CN',
    });
    expect(slackIssues(view)).toEqual([]);
    const input = view.blocks.find((b) => (b as { block_id?: string }).block_id === RUN_JSON_BLOCK);
    expect(JSON.stringify(input)).toContain('参数（JSON）');
    expect(JSON.stringify(input)).toContain('\\"dry\\": true');
  });

  it('has loading and notice views that are valid modals without a submit button', () => {
    for (const view of [loadingModal({ server: 's', tool: 't' }), noticeModal('Running…', 'zh-CN')]) {
      expect(slackIssues({ ...view, submit: { type: 'plain_text', text: 'x' } })).toEqual([]);
      expect(view.submit).toBeUndefined();
    }
  });
});

describe('readRunArguments', () => {
  it('types form answers and reports field errors by block', () => {
    const spec = runFormSpec(flat);
    if (!spec) throw new Error('flat schema should render');
    const view = runFormModal({ server: 's', tool: 't', inputSchema: flat });
    expect(readRunArguments(flat, stateFor(spec, view, { title: 'Bug', count: 3 }))).toEqual({
      ok: true,
      args: { title: 'Bug', count: 3 },
    });
    const short = readRunArguments(flat, stateFor(spec, view, { title: 'B' }));
    expect(short).toMatchObject({
      ok: false,
      errors: { [spec.fields[0]?.blockId ?? '']: expect.any(String) as unknown },
    });
  });

  it('parses and checks JSON arguments against the whole schema', () => {
    expect(readRunArguments(nested, json('{"target": {"env": "prod"}}'))).toEqual({
      ok: true,
      args: { target: { env: 'prod' } },
    });
    expect(readRunArguments(nested, json('{oops'))).toEqual({
      ok: false,
      errors: { [RUN_JSON_BLOCK]: 'This is not valid JSON.' },
    });
    expect(readRunArguments(nested, json('[1]'), 'zh-CN')).toMatchObject({ ok: false });
    const missing = readRunArguments(nested, json('{"target": {}}'));
    expect(JSON.stringify(missing)).toContain("/target must have required property 'env'");
  });

  it('leaves checking to the server when a well-formed schema does not compile (a $ref ajv cannot resolve)', () => {
    const odd = { type: 'object', properties: { a: { $ref: '#/definitions/elsewhere' } }, required: ['a'] };
    expect(toolSchemaProblem(odd)).toBeUndefined();
    expect(readRunArguments(odd, json('{"a": 1}'))).toEqual({ ok: true, args: { a: 1 } });
  });
});

// A malformed schema (one that breaks draft-07's meta-schema) is refused by `/mcp run` before any form opens
// (src/slack/run-form.ts): the problem names the property it is under and what is wrong.
describe('toolSchemaProblem', () => {
  const problem = (schema: unknown) => toolSchemaProblem(schema)?.message;

  it('finds nothing wrong with well-formed schemas, whatever their dialect says', () => {
    expect(problem(flat)).toBeUndefined();
    expect(problem(nested)).toBeUndefined();
    expect(problem({ type: 'object' })).toBeUndefined();
    const dialect = 'https://json-schema.org/draft/2020-12/schema';
    expect(
      problem({ $schema: dialect, type: 'object', properties: { a: { type: ['string', 'null'] } } }),
    ).toBe(undefined);
  });

  it('names the property and the problem', () => {
    const under = (property: object) => problem({ type: 'object', properties: { a: property } });
    expect(under({ type: 'nonsense' })).toBe(
      'property "a": "type" must be one of "array", "boolean", "integer", "null", "number", "object", "string"',
    );
    expect(under({ type: 'integer', minimum: '1' })).toBe('property "a": "minimum" must be number');
    expect(under({ type: 'string', enum: 'red' })).toBe('property "a": "enum" must be array');
    expect(problem({ type: 'object', properties: { a: 5 } })).toBe('property "a": must be object,boolean');
  });

  it('names the outer property and the path under it for a nested one, and the keyword outside any property', () => {
    const deep = {
      type: 'object',
      properties: { 'a/b': { type: 'object', properties: { c: { type: 'text' } } } },
    };
    expect(problem(deep)).toMatch(/^property "a\/b": "properties\/c\/type" must be one of "array"/);
    expect(problem({ type: 'object', required: 'a' })).toBe('"required" must be array');
    expect(problem({ type: 'object', additionalProperties: 'no' })).toBe(
      '"additionalProperties" must be object,boolean',
    );
  });
});

// Draft 4 (and OpenAPI 3.0, which many tools wrapping an HTTP API carry) wrote an exclusive bound as a boolean
// beside it. Such a tool is no malformed one: it runs, its arguments held to the bound as its server reads it.
describe('a tool schema with draft 4 exclusive bounds', () => {
  const bounded = {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
      ratio: { type: 'number', maximum: 1, exclusiveMaximum: true },
      tags: { type: 'array', items: { type: 'number', minimum: 5, exclusiveMinimum: true } },
      mode: { enum: [{ exclusiveMinimum: true }] },
    },
    required: ['count'],
  };

  it('is not refused as malformed', () => {
    expect(toolSchemaProblem(bounded)).toBeUndefined();
  });

  it('holds the arguments to each exclusive bound, and to an inclusive one where the flag is false', () => {
    const read = (args: object) => readRunArguments(bounded, json(JSON.stringify(args)));
    expect(read({ count: 1, ratio: 0.5, tags: [6] })).toMatchObject({ ok: true });
    expect(read({ count: 10 })).toMatchObject({ ok: true });
    expect(JSON.stringify(read({ count: 0 }))).toContain('/count must be > 0');
    expect(JSON.stringify(read({ count: 1, ratio: 1 }))).toContain('/ratio must be < 1');
    expect(JSON.stringify(read({ count: 1, tags: [5] }))).toContain('/tags/0 must be > 5');
    expect(JSON.stringify(read({ count: 11 }))).toContain('/count must be <= 10');
    expect(read({ count: 1, mode: { exclusiveMinimum: true } })).toMatchObject({ ok: true });
  });
});

// draft-07's meta-schema does not assert `format: "regex"`, and ajv cannot compile a schema holding a pattern it
// cannot read: before, such a schema left every argument unchecked. A server reads its own dialect (Python's
// `(?i)`), so a pattern no ECMA-262 reading takes is left to it and the rest is still checked; one ECMA-262 reads
// without the `u` flag (Annex B's `[\_]`) is checked that way, as an elicitation's is (blocks/patterns.ts).
describe('a tool schema with a pattern the bot cannot read', () => {
  const schema = (pattern: string) => ({
    type: 'object',
    properties: {
      code: { type: 'string', pattern, maxLength: 5 },
      list: { type: 'array', items: { type: 'string', pattern } },
    },
    required: ['code'],
  });

  it("is not refused: the pattern is the server's to check", () => {
    for (const pattern of ['(', 'a**', '(?i)^abc$', '^[a-z\\_]+$', '^\\p{L}+$', 'a{']) {
      expect(toolSchemaProblem(schema(pattern)), pattern).toBeUndefined();
    }
  });

  it('still holds the arguments to the rest of the schema, wherever the pattern is', () => {
    for (const pattern of ['(', '(?i)^abc$', '(?P<code>abc)']) {
      const read = (args: object) => readRunArguments(schema(pattern), json(JSON.stringify(args)));
      expect(read({ code: 'ABC', list: ['x'] }), pattern).toEqual({
        ok: true,
        args: { code: 'ABC', list: ['x'] },
      });
      expect(JSON.stringify(read({ code: 'abcdef' })), pattern).toContain('/code must NOT have more than 5');
      expect(JSON.stringify(read({ list: ['x'] })), pattern).toContain("required property 'code'");
    }
  });

  it('holds a pattern it can read, as before', () => {
    const read = (code: string) => readRunArguments(schema('^\\p{L}+$'), json(JSON.stringify({ code })));
    expect(read('abc')).toMatchObject({ ok: true });
    expect(JSON.stringify(read('a1'))).toContain('/code must match pattern');
  });

  it('holds a pattern ECMA-262 reads only without the u flag (Annex B), wherever it is', () => {
    for (const [pattern, fits] of [
      ['^[a-z\\_]+$', 'a_b'],
      ['^[a-z\\-]+$', 'a-b'],
    ] as const) {
      const read = (args: object) => readRunArguments(schema(pattern), json(JSON.stringify(args)));
      expect(read({ code: fits, list: [fits] }), pattern).toMatchObject({ ok: true });
      expect(JSON.stringify(read({ code: 'ABC' })), pattern).toContain('/code must match pattern');
      expect(JSON.stringify(read({ code: 'ab', list: ['X'] })), pattern).toContain(
        '/list/0 must match pattern',
      );
    }
  });
});

// A `required` name that `additionalProperties: false` forbids, with no property or pattern for it: every answer
// fails. Refused; a name draft-07 lets be defined elsewhere keeps working.
describe('a tool schema whose required names a property it does not allow', () => {
  const problem = (schema: object) => toolSchemaProblem({ type: 'object', ...schema })?.message;
  const closed = { properties: { a: { type: 'string' } }, additionalProperties: false };

  it('is refused naming the property, at the root, in an allOf member or a required object property', () => {
    expect(problem({ ...closed, required: ['a', 'x'] })).toBe(
      'required names "x", which the schema does not allow',
    );
    expect(problem({ allOf: [{ ...closed, required: ['y'] }] })).toBe(
      '"allOf/0" required names "y", which the schema does not allow',
    );
    const target = { type: 'object', ...closed, required: ['env'] };
    expect(problem({ properties: { target }, required: ['target'] })).toBe(
      'property "target": required names "env", which the schema does not allow',
    );
  });

  it('is not refused when the name is defined elsewhere or may be left out', () => {
    const elsewhere = { allOf: [{ properties: { x: { type: 'integer' } } }], required: ['x'] };
    expect(problem(elsewhere)).toBeUndefined();
    expect(readRunArguments({ type: 'object', ...elsewhere }, json('{"x": 1}'))).toMatchObject({ ok: true });
    expect(problem({ ...closed, patternProperties: { '^x-': {} }, required: ['x-id'] })).toBeUndefined();
    expect(
      problem({ properties: {}, required: ['x'], additionalProperties: { type: 'string' } }),
    ).toBeUndefined();
    expect(problem({ properties: {}, required: ['x'] })).toBeUndefined();
    const optional = { type: 'object', ...closed, required: ['env'] };
    expect(problem({ properties: { optional } })).toBeUndefined();
  });
});

describe('a tool schema naming a format ajv does not know', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is checked with the format ignored, and nothing is printed', () => {
    // Before, ajv console.warn'ed `unknown format "…" ignored in schema at path …` on compiling it: the server's
    // text, of any length, on the bot's stderr outside its logger.
    const printed = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const schema = {
      type: 'object',
      properties: {
        target: { type: 'object', properties: { id: { type: 'string', format: 'my-thing-id' } } },
      },
    };
    expect(readRunArguments(schema, json('{"target": {"id": "anything"}}'))).toEqual({
      ok: true,
      args: { target: { id: 'anything' } },
    });
    expect(readRunArguments(schema, json('{"target": {"id": 3}}'))).toMatchObject({ ok: false });
    expect(printed).not.toHaveBeenCalled();
  });
});
