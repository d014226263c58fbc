// The meta-schema a tool's inputSchema is checked against before ajv compiles it (run-form.ts): draft-07's, less
// its one pairwise pass. ajv checks `uniqueItems` of values of unknown type by comparing every pair, and draft-07's
// meta-schema asks it of `enum` (values of any type) and of `type` (its items are a $ref, so of unknown type too):
// ~17-22 s of the event loop for a tool listing 100,000 values. Every other rule of draft-07 still holds.
// A schema that breaks it is malformed: `/mcp run` refuses the tool, naming the property (metaSchemaProblem).
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' };
import type { ErrorObject, SchemaObject } from 'ajv';
import { SchemaError } from './spec.js';
import { truncate } from './text.js';
import { pointerName } from './json-pointer.js';

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

/** Characters of the keyword path shown after the property (a deeply nested one is cut). */
const KEYWORD_PATH_MAX = 200;

/**
 * One of ajv's errors against TOOL_META_SCHEMA as a SchemaError naming the tool's property it is under:
 * `/properties/count/minimum` → `property "count": "minimum" must be number`; outside any property, the keyword
 * path alone (`"additionalProperties" must be object,boolean`).
 */
export function metaSchemaProblem(error: ErrorObject): SchemaError {
  return problemAt(error.instancePath.split('/').slice(1).map(pointerName), problemText(error));
}

/**
 * `what` is wrong at `path` (keys from the schema's root), as a SchemaError naming the tool's property it is
 * under: `["properties", "a", "pattern"]` → `property "a": "pattern" …`; outside any property, the keyword path
 * alone, and at the root, "the schema".
 */
export function problemAt(path: readonly string[], what: string): SchemaError {
  const [first, name, ...rest] = path;
  if (first === 'properties' && name !== undefined) {
    return new SchemaError(rest.length === 0 ? what : `${keywordPath(rest)} ${what}`, name);
  }
  return new SchemaError(path.length === 0 ? `the schema ${what}` : `${keywordPath(path)} ${what}`);
}

function keywordPath(segments: readonly string[]): string {
  return JSON.stringify(truncate(segments.join('/'), KEYWORD_PATH_MAX));
}

/** ajv's message, with the allowed values spelled out for `enum` (a `type` that is no JSON Schema type). */
function problemText(error: ErrorObject): string {
  const allowed: unknown = error.params['allowedValues'];
  if (error.keyword === 'enum' && Array.isArray(allowed)) {
    return `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  return error.message ?? `breaks "${error.keyword}"`;
}

/** Keywords whose values are instances, not schemas: left as written. */
const INSTANCE_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/**
 * A copy of `schema` whose draft-4 exclusive bounds (`minimum: 1, exclusiveMinimum: true`) are draft-07's
 * (`exclusiveMinimum: 1`), in every subschema; `false`, or `true` with no bound beside it, says nothing and goes.
 */
export function withNumericBounds(schema: object): Record<string, unknown> {
  // Built by fromEntries, which defines each key: `copy[key] = …` would set the copy's prototype for a property
  // named `__proto__`, dropping it from the checked copy (and lending its keywords to the object it sits in).
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      INSTANCE_KEYWORDS.has(key) ? value : numericBoundsIn(value),
    ]),
  );
  for (const [key, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof copy[key] !== 'boolean') continue;
    if (copy[key] === true && typeof copy[bound] === 'number') copy[key] = copy[bound];
    else delete copy[key];
    if (key in copy) delete copy[bound];
  }
  return copy;
}

function numericBoundsIn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(numericBoundsIn);
  return typeof value === 'object' && value !== null ? withNumericBounds(value) : value;
}
