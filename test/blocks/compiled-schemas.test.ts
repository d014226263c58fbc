// A replica checks answers and `/mcp run` arguments for weeks: what ajv compiled for them must not stay for
// good. Each test holds only a WeakRef to a schema it checked with, collects garbage, and asserts that nothing
// else kept it: before, ajv's own cache (keyed by schema object) and its code scope kept every schema it ever
// compiled, ~6 KB each, so a run form's JSON arguments grew the heap by that per submission.
import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { CompiledSchemas, SCHEMAS_KEPT } from '../../blocks/compiled-schemas.js';
import { parseFormSchema } from '../../blocks/index.js';
import { RUN_JSON_BLOCK, readRunArguments } from '../../blocks/run-form.js';
import { validationErrors } from '../../blocks/validate.js';
import { collected } from '../support/collected.js';

const json = (text: string) => ({
  [RUN_JSON_BLOCK]: { [RUN_JSON_BLOCK]: { type: 'plain_text_input', value: text } },
});

/** A tool's inputSchema the run form asks for as JSON (a nested object), made anew; `n` sets it apart. */
function toolSchema(n: number): { schema: object; nested: object } {
  const nested = { type: 'object', properties: { env: { type: 'string', maxLength: n + 1 } } };
  return { schema: { type: 'object', properties: { target: nested } }, nested };
}

/** Checks a run form's arguments against tool schema `n`; a WeakRef to a part of the schema checked with. */
function runFormChecked(n: number): WeakRef<object> {
  const { schema, nested } = toolSchema(n);
  const read = readRunArguments(schema, json('{"target":{"env":"x"}}'));
  expect(read.ok).toBe(true);
  return new WeakRef(nested);
}

/**
 * Validates an answer to a one-field form whose rule `n` sets apart; a WeakRef to the schema validated with (a
 * copy of the FormSpec's: parseFormSchema keeps its own recent specs, a bound of their own).
 */
function answerValidated(n: number): WeakRef<object> {
  const parsed = parseFormSchema({
    type: 'object',
    properties: { title: { type: 'string', maxLength: n + 1 } },
  });
  const spec = { ...parsed, schema: structuredClone(parsed.schema) };
  expect(validationErrors(spec, { title: 'x' })).toEqual({});
  return new WeakRef(spec.schema);
}

describe('compiled schemas are not kept for the replica life', () => {
  it('a run form checked again with the same tool schema keeps nothing of the later checks', async () => {
    runFormChecked(0);
    const again = runFormChecked(0);
    expect(await collected(again)).toBe(true);
  });

  it('the run form keeps no tool schema past SCHEMAS_KEPT others checked after it', async () => {
    const first = runFormChecked(1_000);
    for (let n = 1; n <= SCHEMAS_KEPT; n++) runFormChecked(1_000 + n);
    expect(await collected(first)).toBe(true);
  });

  it('a tool schema ajv cannot compile is not kept by the check that gave up on it', async () => {
    const kept = ((): WeakRef<object> => {
      const nested = { type: 'object', properties: { env: { type: 'no-such-type' } } };
      const read = readRunArguments({ type: 'object', properties: { target: nested } }, json('{}'));
      expect(read.ok).toBe(true);
      return new WeakRef(nested);
    })();
    // ajv holds the last schema it compiled without an $id (its refs['']): one schema, whichever came last.
    runFormChecked(3_000);
    expect(await collected(kept)).toBe(true);
  });

  it('still refuses arguments a tool schema with an $id refuses, however often it is checked', () => {
    const schema = {
      $id: 'https://tools.example/deploy',
      type: 'object',
      properties: { target: { type: 'object', properties: { env: { type: 'string' } }, required: ['env'] } },
      required: ['target'],
    };
    for (let i = 0; i < 3; i++) expect(readRunArguments(schema, json('{"target":{}}')).ok).toBe(false);
  });

  it('answers validated against SCHEMAS_KEPT other forms after one keep nothing of its schema', async () => {
    const first = answerValidated(2_000);
    for (let n = 1; n <= SCHEMAS_KEPT; n++) answerValidated(2_000 + n);
    expect(await collected(first)).toBe(true);
  });
});

describe('a schema ajv cannot compile', () => {
  it('is compiled once: the same failure is thrown again for its text without compiling', () => {
    const ajv = new Ajv({ strict: false });
    const compiles = vi.spyOn(ajv, 'compile');
    const schemas = new CompiledSchemas(() => ajv);
    // Before, each check compiled it again: `/mcp run` checks one tool's schema twice per command, and a schema
    // of thousands of chained $defs took ajv ~1.3 s to refuse each time.
    const unresolvable = () => ({
      type: 'object',
      properties: { a: { $ref: 'https://example.com/a.json' } },
    });
    const first = catchError(() => schemas.validatorFor(unresolvable()));
    const second = catchError(() => schemas.validatorFor(unresolvable()));
    expect(first).toBeInstanceOf(Error);
    expect(second).toBe(first);
    expect(compiles).toHaveBeenCalledTimes(1);
    // A schema that compiles is still compiled, once.
    const fine = schemas.validatorFor({ type: 'string' });
    expect(schemas.validatorFor({ type: 'string' })).toBe(fine);
    expect(compiles).toHaveBeenCalledTimes(2);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
