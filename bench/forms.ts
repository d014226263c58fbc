// The form engine on a 13-field schema: parse, render the modal, read a filled submission back. The floor is a
// JSON.stringify + JSON.parse of the same modal view, i.e. the least work any serializer of it must do.
import { formModal, parseFormSchema, readSubmission } from '../blocks/index.js';
import { stateFor } from '../test/blocks/testing.js';
import type { Content } from '../src/relay/types.js';
import { row, summarize, timeSync, type Row } from './stats.js';

/** 13 fields covering every kind the engine renders. */
export const SCHEMA_13 = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Full name', minLength: 2, maxLength: 60 },
    bio: { type: 'string', title: 'Bio', maxLength: 1000 },
    email: { type: 'string', format: 'email', title: 'Email' },
    homepage: { type: 'string', format: 'uri', title: 'Homepage' },
    birthday: { type: 'string', format: 'date', title: 'Birthday' },
    meeting: { type: 'string', format: 'date-time', title: 'Meeting' },
    age: { type: 'integer', title: 'Age', minimum: 18, maximum: 150 },
    score: { type: 'number', title: 'Score', minimum: 0, maximum: 9.5 },
    subscribe: { type: 'boolean', title: 'Subscribe' },
    size: { type: 'string', title: 'Size', enum: ['s', 'm', 'l'] },
    plan: {
      type: 'string',
      title: 'Plan',
      oneOf: ['free', 'team', 'business', 'enterprise'].map((p) => ({ const: p, title: p.toUpperCase() })),
    },
    region: {
      type: 'string',
      title: 'Region',
      enum: Array.from({ length: 50 }, (_, i) => `region-${i + 1}`),
    },
    tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
  },
  required: ['name', 'email', 'age', 'plan'],
};

const ANSWER: Content = {
  name: 'Ada Lovelace',
  bio: 'Analyst of engines',
  email: 'ada@example.com',
  homepage: 'https://example.com/ada',
  birthday: '1815-12-10',
  meeting: '2026-12-02T10:00:00.000Z',
  age: 36,
  score: 9.25,
  subscribe: true,
  size: 'm',
  plan: 'team',
  region: 'region-7',
  tags: ['a', 'c'],
};

const INPUT = { questionId: 'q-bench', server: 'bench', message: 'Please fill in your profile' };

export function formBench(n: number): Row[] {
  const spec = parseFormSchema(SCHEMA_13);
  const view = formModal(spec, INPUT);
  const values = stateFor(spec, view, ANSWER);
  const check = readSubmission(spec, values);
  if (!check.ok) throw new Error(`bench submission is invalid: ${JSON.stringify(check.errors)}`);
  const warm = Math.min(500, n);
  const floor = timeSync(n, warm, () => JSON.parse(JSON.stringify(view)) as unknown);
  const floorP50 = summarize(floor.samples).p50;
  const parse = timeSync(n, warm, () => parseFormSchema(SCHEMA_13));
  const modal = timeSync(n, warm, () => formModal(spec, INPUT));
  const read = timeSync(n, warm, () => readSubmission(spec, values));
  const all = timeSync(
    n,
    warm,
    () => readSubmission(parseFormSchema(SCHEMA_13), values) && formModal(spec, INPUT),
  );
  // A schema seen for the first time costs an ajv compile; every later submission of it reuses the compiled
  // validator. A distinct description per call defeats the cache, which shows what the cache saves.
  const coldN = Math.min(n, 300);
  const cold = timeSync(coldN, 0, (i) => {
    const fresh = {
      ...SCHEMA_13,
      properties: { ...SCHEMA_13.properties, name: { ...SCHEMA_13.properties.name, description: `v${i}` } },
    };
    return readSubmission(parseFormSchema(fresh), values);
  });
  const bytes = JSON.stringify(view).length;
  return [
    row('forms', `JSON.stringify+parse of the modal (${bytes} B) = floor`, summarize(floor.samples), {
      opsPerSec: floor.opsPerSec,
    }),
    row('forms', 'parseFormSchema (13 fields, ajv compile)', summarize(parse.samples), {
      opsPerSec: parse.opsPerSec,
      floorP50,
    }),
    row('forms', 'formModal', summarize(modal.samples), { opsPerSec: modal.opsPerSec, floorP50 }),
    row('forms', 'readSubmission (typed content + ajv validation)', summarize(read.samples), {
      opsPerSec: read.opsPerSec,
      floorP50,
    }),
    row('forms', 'parse + read of a never-seen schema (ajv compile, cache missed)', summarize(cold.samples), {
      opsPerSec: cold.opsPerSec,
      floorP50,
    }),
    row('forms', 'parse + modal + read, together', summarize(all.samples), {
      opsPerSec: all.opsPerSec,
      floorP50,
    }),
  ];
}
