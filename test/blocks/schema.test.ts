import { describe, expect, it } from 'vitest';
import { SchemaError, parseFormSchema, type FieldSpec } from '../../blocks/schema.js';

const form = (properties: Record<string, unknown>, required?: string[]) => ({
  type: 'object',
  properties,
  ...(required && { required }),
});
const only = (property: unknown): FieldSpec | undefined => parseFormSchema(form({ p: property })).fields[0];

function schemaError(schema: unknown): SchemaError {
  try {
    parseFormSchema(schema);
  } catch (error) {
    if (error instanceof SchemaError) return error;
    throw error;
  }
  throw new Error('expected a SchemaError');
}

describe('parseFormSchema: field kinds', () => {
  it('reads a string with length bounds, format, title and description', () => {
    expect(
      only({ type: 'string', title: 'Mail', description: 'Work address', format: 'email', maxLength: 80 }),
    ).toEqual({
      name: 'p',
      blockId: 'f0_p',
      actionId: 'f0_p',
      label: 'Mail',
      hint: 'Work address',
      required: false,
      kind: 'text',
      format: 'email',
      maxLength: 80,
    });
  });

  it('uses the property name as the label when there is no title', () => {
    expect(only({ type: 'string' })?.label).toBe('p');
  });

  it('reads number and integer with bounds', () => {
    expect(only({ type: 'number', minimum: 0.5, maximum: 9 })).toMatchObject({
      kind: 'number',
      minimum: 0.5,
      maximum: 9,
    });
    expect(only({ type: 'integer', minimum: 18 })).toMatchObject({ kind: 'integer', minimum: 18 });
  });

  it('reads legacy enum with enumNames, untitled enum and titled oneOf as single-select', () => {
    const legacy = { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] };
    expect(only(legacy)).toMatchObject({
      kind: 'single-select',
      options: [
        { value: 'r', label: 'Red' },
        { value: 'g', label: 'Green' },
      ],
    });
    expect(only({ type: 'string', enum: ['r'] })).toMatchObject({ options: [{ value: 'r', label: 'r' }] });
    const titled = { type: 'string', oneOf: [{ const: '#f00', title: 'Red' }] };
    expect(only(titled)).toMatchObject({ kind: 'single-select', options: [{ value: '#f00', label: 'Red' }] });
  });

  it('reads untitled items.enum and titled items.anyOf as multi-select with item bounds', () => {
    const untitled = { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 2 };
    expect(only(untitled)).toMatchObject({ kind: 'multi-select', minItems: 1, maxItems: 2 });
    const titled = { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] } };
    expect(only(titled)).toMatchObject({ kind: 'multi-select', options: [{ value: 'a', label: 'A' }] });
  });

  it('keeps defaults on every kind', () => {
    expect(only({ type: 'string', default: 'Zed' })?.default).toBe('Zed');
    expect(only({ type: 'integer', default: 3 })?.default).toBe(3);
    expect(only({ type: 'boolean', default: false })?.default).toBe(false);
    expect(only({ type: 'string', enum: ['a', 'b'], default: 'b' })?.default).toBe('b');
    expect(only({ type: 'array', items: { enum: ['a', 'b'] }, default: ['b'] })?.default).toEqual(['b']);
    expect(only({ type: 'string', format: 'date', default: '2026-12-02' })?.default).toBe('2026-12-02');
  });

  it('ignores defaults that break their own field (so they are never pre-filled)', () => {
    expect(only({ type: 'string', maxLength: 2, default: 'long' })?.default).toBeUndefined();
    expect(only({ type: 'integer', default: 1.5 })?.default).toBeUndefined();
    expect(only({ type: 'number', maximum: 1, default: 2 })?.default).toBeUndefined();
    expect(only({ type: 'string', enum: ['a'], default: 'z' })?.default).toBeUndefined();
    expect(
      only({ type: 'array', items: { enum: ['a', 'b'] }, maxItems: 1, default: ['a', 'b'] })?.default,
    ).toBeUndefined();
    expect(only({ type: 'string', format: 'date', default: 'tomorrow' })?.default).toBeUndefined();
  });

  it('marks required fields and builds a normalized schema', () => {
    const spec = parseFormSchema(
      form({ a: { type: 'string', minLength: 1, pattern: '^x', extra: 1 }, b: { type: 'boolean' } }, ['a']),
    );
    expect(spec.fields.map((f) => f.required)).toEqual([true, false]);
    // Keyed by block id, as content is re-keyed to be validated (ajv skips a property named "__proto__").
    expect(spec.schema).toEqual({
      type: 'object',
      properties: { f0_a: { type: 'string', minLength: 1, pattern: '^x' }, f1_b: { type: 'boolean' } },
      required: ['f0_a'],
      additionalProperties: false,
    });
  });

  it('accepts $schema and an empty form', () => {
    const spec = parseFormSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {},
    });
    expect(spec.fields).toEqual([]);
  });
});

describe('parseFormSchema: refused schemas name the property', () => {
  const cases: [string, unknown, string | undefined, RegExp][] = [
    ['non-object root', { type: 'array', items: {} }, undefined, /root must have type "object"/],
    ['root not an object', 'hello', undefined, /must be an object/],
    ['missing properties', { type: 'object' }, undefined, /no "properties"/],
    ['nested object', form({ addr: { type: 'object', properties: {} } }), 'addr', /nested object/],
    [
      'array of objects',
      form({ age: { type: 'array', items: { type: 'object' } } }),
      'age',
      /type "array" of objects is not supported/,
    ],
    [
      'array of free strings',
      form({ tags: { type: 'array', items: { type: 'string' } } }),
      'tags',
      /"enum" or "anyOf"/,
    ],
    ['$ref', form({ r: { $ref: '#/$defs/x' } }), 'r', /"\$ref" is not supported/],
    ['unknown type', form({ t: { type: 'null' } }), 't', /type "null" is not supported/],
    ['missing type', form({ t: { title: 'x' } }), 't', /has no "type"/],
    ['empty enum', form({ e: { type: 'string', enum: [] } }), 'e', /at least one value/],
    ['non-string enum', form({ e: { type: 'string', enum: [1, 2] } }), 'e', /array of strings/],
    ['duplicate enum', form({ e: { type: 'string', enum: ['a', 'a'] } }), 'e', /appears twice/],
    [
      'enumNames mismatch',
      form({ e: { type: 'string', enum: ['a'], enumNames: ['A', 'B'] } }),
      'e',
      /one per "enum"/,
    ],
    [
      'conflicting lengths',
      form({ s: { type: 'string', minLength: 5, maxLength: 2 } }),
      's',
      /"minLength" \(5\) is greater/,
    ],
    [
      'conflicting bounds',
      form({ n: { type: 'number', minimum: 5, maximum: 2 } }),
      'n',
      /"minimum" \(5\) is greater/,
    ],
    [
      'minItems above options',
      form({ m: { type: 'array', items: { enum: ['a'] }, minItems: 2 } }),
      'm',
      /more than the 1/,
    ],
    ['pattern not a string', form({ s: { type: 'string', pattern: 1 } }), 's', /"pattern" must be a string/],
    ['required unknown', form({ a: { type: 'string' } }, ['b']), 'b', /not defined/],
    [
      'too many fields',
      form(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, { type: 'boolean' }]))),
      undefined,
      /has 101 fields; at most 100 fit in a Slack form \(5 pages of 20\)/,
    ],
  ];

  it.each(cases)('%s', (_, schema, property, message) => {
    const error = schemaError(schema);
    expect(error.code).toBe('invalid_schema');
    expect(error.property).toBe(property);
    expect(error.message).toMatch(message);
    if (property !== undefined) expect(error.message).toMatch(new RegExp(`^property "${property}": `));
  });

  it('names the property in the exact message for arrays of objects', () => {
    expect(schemaError(form({ age: { type: 'array', items: { type: 'object' } } })).message).toBe(
      'property "age": type "array" of objects is not supported',
    );
  });

  it('refuses a form whose fields would not fit in one Slack view', () => {
    // Long option lists no longer count (beyond 100 they become an external select); hints and defaults do.
    const field = { type: 'string', description: '長'.repeat(2000), default: '長'.repeat(3000) };
    const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, field]));
    expect(schemaError(form(properties)).message).toMatch(/too large for a Slack modal/);
  });

  it('parses a schema once: the same schema text, read again, gives the same frozen form', () => {
    const schema = form({ name: { type: 'string', enum: ['a', 'b'] }, n: { type: 'number' } }, ['name']);
    const first = parseFormSchema(schema);
    const again = parseFormSchema(JSON.parse(JSON.stringify(schema)));
    expect(again).toBe(first);
    expect(Object.isFrozen(first.fields[0])).toBe(true);
    expect(Object.isFrozen(first.required)).toBe(true);
    expect(parseFormSchema(form({ name: { type: 'string' } }))).not.toBe(first);
  });
});
