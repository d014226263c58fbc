import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldBlockId, optionIndex, optionValue } from '../../blocks/ids.js';
import { parseFormSchema } from '../../blocks/schema.js';

describe('field ids', () => {
  it('keeps a readable prefix of the name', () => {
    expect(fieldBlockId(3, 'first name.初')).toBe('f3_first_name__');
  });

  it('any property names give unique, valid, stable block and action ids (property)', () => {
    const names = fc.uniqueArray(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.constantFrom('__proto__', 'a.b', 'with space', ''),
      ),
      { minLength: 1, maxLength: 30 },
    );
    fc.assert(
      fc.property(names, (list) => {
        const schema = {
          type: 'object',
          properties: Object.fromEntries(list.map((n) => [n, { type: 'string' }])),
        };
        const spec = parseFormSchema(schema);
        const ids = spec.fields.map((f) => f.blockId);
        expect(new Set(ids).size).toBe(list.length);
        for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{1,255}$/);
        // In the schema's own key order: JavaScript puts integer-like keys ("0") first, whatever order the list had.
        expect(spec.fields.map((f) => f.name)).toEqual(Object.keys(schema.properties));
        expect(parseFormSchema(schema).fields.map((f) => f.blockId)).toEqual(ids);
      }),
    );
  });
});

describe('option values', () => {
  it('map an index to a short value and back', () => {
    expect(optionValue(42)).toBe('o42');
    expect(optionIndex('o42')).toBe(42);
  });

  it('reject values that are not ours', () => {
    expect(optionIndex('o01')).toBeUndefined();
    expect(optionIndex('x1')).toBeUndefined();
    expect(optionIndex('o')).toBeUndefined();
  });
});
