// Form-mode elicitation params checked as the SDK checks them (src/mcp/form-params.ts), with a schema that
// passed remembered by its JSON text: the first issue, or the message, is the SDK's whole-object parse's, the
// first time and every time after.
import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFormParams } from '../../src/mcp/form-params.js';

/** What the SDK's parse of the whole params says: the message, or its first issue's path and message. */
function sdkSays(params: Record<string, unknown>) {
  const parsed = ElicitRequestFormParamsSchema.safeParse(params);
  if (parsed.success) return { ok: true, message: parsed.data.message };
  const [first] = parsed.error.issues;
  return { ok: false, path: first?.path, message: first?.message };
}

function weSay(params: Record<string, unknown>) {
  const checked = checkFormParams(params);
  if (checked.ok) return checked;
  return { ok: false, path: checked.issue?.path, message: checked.issue?.message };
}

/** Field definitions the SDK takes and ones it refuses (a nested object, an unknown type, a wrong keyword). */
const field = fc.oneof(
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'string', maxLength: 50, format: 'email' }),
  fc.constant({ type: 'integer', minimum: 0 }),
  fc.constant({ type: 'string', enum: ['a', 'b'] }),
  fc.constant({ type: 'array', items: { type: 'string', enum: ['x', 'y'] } }),
  fc.constant({ type: 'object', properties: {} }),
  fc.constant({ type: 'date' }),
  fc.constant({ type: 'string', maxLength: 'long' }),
);

const params = fc.record(
  {
    mode: fc.constantFrom('form', 'url', undefined),
    message: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(7)),
    requestedSchema: fc.oneof(
      fc.record({
        type: fc.constantFrom('object', 'array'),
        properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), field, { maxKeys: 4 }),
      }),
      fc.constant(undefined),
      fc.constant('a schema'),
    ),
  },
  { requiredKeys: [] },
);

describe('form-mode elicitation params', () => {
  it("say what the SDK's whole parse says, the first time and again from memory", () => {
    fc.assert(
      fc.property(params, (p) => {
        const expected = sdkSays(p);
        expect(weSay(p)).toEqual(expected);
        expect(weSay(structuredClone(p))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('still checks the message of params whose schema it remembers', () => {
    const requestedSchema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    expect(checkFormParams({ message: 'Ship it?', requestedSchema })).toEqual({
      ok: true,
      message: 'Ship it?',
    });
    expect(weSay({ message: 7, requestedSchema })).toMatchObject({ ok: false, path: ['message'] });
  });
});
