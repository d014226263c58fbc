// The validators src/mcp compiles server schemas with (schema-validators.ts) build their own ajv engines, to
// route ajv's notes to the bot's logger; this pins that they choose the engine by `$schema` exactly as the SDK's
// default validator does (no `$schema` or 2020-12, 2019-09, draft-07 or draft-06; any other refused, in the
// same words), so a schema compiles, fails or checks a result alike.
import { describe, expect, it } from 'vitest';
import type { JsonSchemaType } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { SchemaNotes, schemaValidator } from '../../src/mcp/schema-validators.js';

/** What a validator makes of `schema`: why it cannot compile it, or its verdict on each of `data`. */
function outcome(compile: (schema: JsonSchemaType) => (input: unknown) => unknown, schema: object) {
  return (data: unknown[]) => {
    try {
      const validate = compile(schema);
      return { verdicts: data.map((input) => validate(input)) };
    } catch (error) {
      return { problem: error instanceof Error ? error.message : String(error) };
    }
  };
}

const TUPLE = { type: 'array', items: [{ type: 'number' }] };
const RECURSIVE = { type: 'object', $recursiveAnchor: true, properties: { c: { $recursiveRef: '#' } } };
/** ajv-formats' formats and keywords, and every error named (allErrors). */
const DATED = { type: 'string', format: 'date', formatMinimum: '2020-01-01' };
const PAIRED = { type: 'object', required: ['a', 'b'] };
const DATA = [['a'], [1, 'a'], { c: 5 }, { c: {} }, {}, 'text', '2019-05-05', '2021-01-01'];
const DIALECTS: unknown[] = [
  undefined,
  7,
  'https://json-schema.org/draft/2020-12/schema',
  'http://json-schema.org/draft/2020-12/schema#',
  'https://json-schema.org/draft/2019-09/schema#',
  'http://json-schema.org/draft/2019-09/schema',
  'http://json-schema.org/draft-07/schema#',
  'https://json-schema.org/draft-06/schema',
  'http://json-schema.org/draft-04/schema#',
  'https://example.test/my-dialect',
];

describe("the bot's validators", () => {
  it("pick each dialect's engine and refuse the others as the SDK's own validator does", () => {
    const notes = new SchemaNotes('outputs', { debug: () => undefined, warn: () => undefined });
    for (const $schema of DIALECTS)
      for (const shape of [TUPLE, RECURSIVE, DATED, PAIRED]) {
        const schema = $schema === undefined ? shape : { $schema, ...shape };
        const ours = outcome((s) => schemaValidator(s, notes.loggerFor('t')), schema)(DATA);
        const sdk = outcome((s) => new AjvJsonSchemaValidator().getValidator(s), schema)(DATA);
        expect(ours, `${String($schema)}: ${JSON.stringify(shape)}`).toEqual(sdk);
      }
  });
});
