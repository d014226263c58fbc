// A server's schema may list many allowed numbers (`enum`, constraints.ts). Checking a submission against it must
// cost in proportion to the list: ajv's meta-schema check of a schema (draft-07's `enum`: uniqueItems of values
// of any type) compares every pair of values, ~34 s of the event loop for 100,000 numbers, once per schema text on
// each replica, which a server could ask again and again with another list. The form's schema is its parser's.
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RUN_JSON_BLOCK, readRunArguments } from '../../blocks/run-form.js';
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

// `/mcp run` checks JSON arguments against the tool's own inputSchema, the server's text: ajv still checks it is a
// schema before compiling it, but the pairwise `enum` comparison stalled the replica ~17-22 s per 100,000 values.
describe("a tool's inputSchema whose enum lists many values", () => {
  const json = (text: string) => ({
    [RUN_JSON_BLOCK]: { [RUN_JSON_BLOCK]: { type: 'plain_text_input', value: text } },
  });
  /** A nested object (so the run form asks for JSON) whose `env` takes one of `values`. */
  const toolSchema = (env: object) => ({
    type: 'object',
    properties: { target: { type: 'object', properties: { env }, required: ['env'] } },
    required: ['target'],
  });

  it('reads each listed value a bounded number of times, not once per pair of values', () => {
    let reads = 0;
    // Object values whose one field counts its reads: comparing two values reads both.
    const values = Array.from({ length: 2_000 }, (_, i) => ({
      get id() {
        reads += 1;
        return i;
      },
    }));
    const schema = toolSchema({ enum: values });
    expect(readRunArguments(schema, json('{"target":{"env":{"id":1999}}}'))).toEqual({
      ok: true,
      args: { target: { env: { id: 1999 } } },
    });
    expect(readRunArguments(schema, json('{"target":{"env":{"id":-1}}}')).ok).toBe(false);
    expect(reads).toBeLessThan(10 * values.length);
  });

  it('leaves a schema whose `type` lists many values to the server without comparing every pair', () => {
    let reads = 0;
    const types = Array.from({ length: 2_000 }, (_, i) => ({
      get id() {
        reads += 1;
        return i;
      },
    }));
    const schema = toolSchema({ type: types });
    expect(readRunArguments(schema, json('{"target":{}}'))).toEqual({ ok: true, args: { target: {} } });
    expect(reads).toBeLessThan(10 * types.length);
  });

  it('checks arguments against an enum that repeats a value (draft-07: values SHOULD be unique)', () => {
    const schema = toolSchema({ enum: ['prod', 'prod', 'staging'] });
    expect(readRunArguments(schema, json('{"target":{"env":"staging"}}')).ok).toBe(true);
    const refused = readRunArguments(schema, json('{"target":{"env":"dev"}}'));
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).toContain('/target/env must be equal to one of the allowed values');
  });

  it('still leaves a schema ajv refuses to the server when it also lists many values', () => {
    const levels = Array.from({ length: 1_000 }, (_, i) => i);
    const schema = toolSchema({ type: 'string', minLength: -1, enum: levels.map(String) });
    expect(readRunArguments(schema, json('{"target":{}}'))).toEqual({ ok: true, args: { target: {} } });
  });
});
