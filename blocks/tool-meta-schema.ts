// The meta-schema a tool's inputSchema is checked against before ajv compiles it (run-form.ts): draft-07's, less
// its one pairwise pass. ajv checks `uniqueItems` of values of unknown type by comparing every pair, and draft-07's
// meta-schema asks it of `enum` (values of any type) and of `type` (its items are a $ref, so of unknown type too):
// ~17-22 s of the event loop for a tool listing 100,000 values. Every other rule of draft-07 still holds.
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };
import type { SchemaObject } from 'ajv';

const [oneType, typeList] = draft07.properties.type.anyOf;

/**
 * draft-07 where `enum` need not hold distinct values (draft-07 itself says they SHOULD be, not MUST; a repeated
 * value allows nothing more), and where `type`'s list is one of strings, which ajv checks distinct in one pass.
 */
export const TOOL_META_SCHEMA: SchemaObject = {
  ...draft07,
  // Its own id: ajv keeps draft-07's as well, under draft-07's id.
  $id: 'urn:elicit-relay:tool-input-schema',
  properties: {
    ...draft07.properties,
    enum: { type: 'array', items: true, minItems: 1 },
    type: {
      anyOf: [
        oneType,
        { ...typeList, items: { type: 'string', enum: draft07.definitions.simpleTypes.enum } },
      ],
    },
  },
};
