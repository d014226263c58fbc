// A server's schema may list many allowed numbers (`enum`, constraints.ts). Checking a submission against it must
// cost in proportion to the list: ajv's meta-schema check of a schema (draft-07's `enum`: uniqueItems of values
// of any type) compares every pair of values, ~34 s of the event loop for 100,000 numbers, once per schema text on
// each replica, which a server could ask again and again with another list. The form's schema is its parser's.
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';

const typedNumber = (blockId: string, value: string) => ({
  [blockId]: { [blockId]: { type: 'number_input', value } },
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a number field whose enum lists 100,000 values', () => {
  it('takes a listed number and refuses another without the pairwise meta-schema check', () => {
    const metaChecks = vi.spyOn(Ajv.prototype, 'validateSchema');
    const values = Array.from({ length: 100_000 }, (_, i) => 2 * i + 1);
    const spec = parseFormSchema({ type: 'object', properties: { n: { type: 'integer', enum: values } } });
    const blockId = spec.fields[0]?.blockId ?? '';
    expect(readSubmission(spec, typedNumber(blockId, '199999'), {})).toEqual({
      ok: true,
      content: { n: 199_999 },
    });
    expect(readSubmission(spec, typedNumber(blockId, '4'), {})).toEqual({
      ok: false,
      errors: { [blockId]: 'Must be one of: 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, …' },
    });
    const checkedEnums = metaChecks.mock.calls.filter(([schema]) =>
      JSON.stringify(schema).includes('199999'),
    );
    expect(checkedEnums).toEqual([]);
  });
});
