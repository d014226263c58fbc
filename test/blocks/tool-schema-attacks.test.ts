// A tool's inputSchema comes from the MCP server, not from the bot: shapes an unlucky or hostile server may list,
// each of which must still end as a refusal or a checked run, never a thrown RangeError, a property silently
// dropped from the check, or the event loop held.
import { describe, expect, it } from 'vitest';
import { readRunArguments, toolSchemaProblem } from '../../blocks/run-form.js';
import { SCHEMA_NESTING_MAX } from '../../blocks/tool-schema-checks.js';

const json = (text: string) => ({ mcp_run_json: { mcp_run_json: { value: text } } });

describe('a property named __proto__', () => {
  // JSON.parse makes `__proto__` an own property, as the server's JSON Schema reads it.
  const named = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"object"}},' +
      '"required":["__proto__"],"additionalProperties":false}',
  ) as object;

  it('is a property like any other: the tool is not refused', () => {
    // Before: the checked copy's `properties` took it as its prototype, so `type: "string"` read as a property
    // named "type" that is no schema ('property "type": must be object,boolean').
    expect(toolSchemaProblem(named)).toBeUndefined();
  });

  it('at the root is an unknown keyword, not a required the bot enforces alone', () => {
    const lent = JSON.parse('{"type":"object","__proto__":{"required":["x"]}}') as object;
    expect(toolSchemaProblem(lent)).toBeUndefined();
    expect(readRunArguments(lent, json('{}'))).toEqual({ ok: true, args: {} });
  });
});

describe('a schema nested very deep', () => {
  function nested(levels: number, wrap: (inner: object) => object): object {
    let schema: object = { type: 'string' };
    for (let i = 0; i < levels; i++) schema = wrap(schema);
    return { type: 'object', properties: { x: schema } };
  }
  const shapes: [string, (inner: object) => object][] = [
    ['properties', (a) => ({ type: 'object', properties: { a }, required: ['a'] })],
    ['allOf', (inner) => ({ allOf: [inner] })],
    ['not', (inner) => ({ not: inner })],
  ];

  it('is refused, named, at any depth past the bound, instead of overflowing the stack', () => {
    for (const [name, wrap] of shapes) {
      for (const levels of [SCHEMA_NESTING_MAX, 1_000, 100_000]) {
        expect(toolSchemaProblem(nested(levels, wrap))?.message, `${name} ${levels}`).toBe(
          `the schema nests objects and arrays more than ${SCHEMA_NESTING_MAX} levels deep`,
        );
      }
    }
  });

  it('is checked as before up to the bound', () => {
    // Each `not` is one object deeper; x sits at level 3 (root, properties, x), its innermost schema at 3 + levels.
    const deepest = nested(SCHEMA_NESTING_MAX - 3, (inner) => ({ not: inner }));
    expect(toolSchemaProblem(deepest)).toBeUndefined();
  });
});

describe('a patternProperties regex that backtracks catastrophically', () => {
  // Every `required` name is allowed when any pattern sits beside additionalProperties: false; the bot runs no
  // server regex against the server's own names (`^(a+)+$` against this name took ~43 s before).
  const redos = {
    type: 'object',
    patternProperties: { '^(a+)+$': {} },
    additionalProperties: false,
    required: [`${'a'.repeat(30)}!`],
  };

  it('is not run against the required names: the tool is not refused', () => {
    expect(toolSchemaProblem(redos)).toBeUndefined();
  });

  it('nor is a pattern that does not match: what it allows is the server’s to say', () => {
    const other = { ...redos, patternProperties: { '^x-': {} }, required: ['y'] };
    expect(toolSchemaProblem(other)).toBeUndefined();
  });
});
