// What the server receives for fields with a schema `default`. The bot declares the elicitation capability
// `form.applyDefaults: true` (src/mcp/session.ts; asserted in hub-policy.test.ts), by which the server relies on
// the client to fill the default of each field the answer leaves out: toElicitResult does, after the person
// submits the form. It fills only defaults valid for their own field (the ones the form would pre-fill), so the
// content always meets the requested schema.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { toElicitResult } from '../../src/mcp/elicitation.js';
import type { Content } from '../../src/relay/types.js';
import { stateFor } from '../blocks/testing.js';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);

/** What the form reads and what the server receives when the person submits the form holding `answers`. */
function relayed(schema: Record<string, unknown>, answers: Content) {
  const spec = parseFormSchema(schema);
  const view = formModal(spec, { questionId: 'q1', server: 'srv', message: 'Reply' });
  const read = readSubmission(spec, stateFor(spec, view, answers));
  if (!read.ok) throw new Error(`the form refused the submission: ${JSON.stringify(read.errors)}`);
  const result = toElicitResult({ action: 'accept', content: read.content }, 'form', schema);
  return { view, form: read.content, sent: result.content ?? {} };
}

/** Defaults that break their own field's rules, which the form ignores rather than pre-fills. */
const invalidDefaults = {
  env: { type: 'string', enum: ['staging', 'production'], default: 'prod' },
  replicas: { type: 'integer', minimum: 1, maximum: 10, default: 0 },
  ratio: { type: 'number', maximum: 1, default: 1.5 },
  ticket: { type: 'string', pattern: '^[A-Z]+-[0-9]+$', default: 'none' },
  name: { type: 'string', maxLength: 3, default: 'too long' },
  tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['c'] },
  picks: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1, default: ['a', 'b'] },
  owner: { type: 'string', format: 'email', default: 'nobody' },
  due: { type: 'string', format: 'date', default: '2025-02-30' },
  at: { type: 'string', format: 'date-time', default: '2025-01-02T10:00:00' },
  ok: { type: 'boolean', default: 'yes' },
};

describe('schema defaults on the wire (the client applies defaults)', () => {
  it('fills no default its own field refuses: the content meets the requested schema', () => {
    const schema = { type: 'object', properties: invalidDefaults };
    const { form, sent } = relayed(schema, {});
    expect(form).toEqual({});
    expect(sent).toEqual({});
    expect(ajv.validate(schema, sent), ajv.errorsText(ajv.errors)).toBe(true);
  });

  it('fills every valid default of a field left out, beside the ones that are not filled', () => {
    const schema = {
      type: 'object',
      properties: {
        ...invalidDefaults,
        region: { type: 'string', enum: ['eu', 'us'], default: 'eu' },
        size: { type: 'integer', minimum: 1, default: 3 },
        step: { type: 'number', default: 1e-7 },
        notify: { type: 'boolean', default: false },
        cc: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['b'] },
        start: { type: 'string', format: 'date-time', default: '2025-01-02T10:00:00Z' },
      },
    };
    const { sent } = relayed(schema, {});
    // cc's pre-ticked default unticked is the person's answer, none, not a field left out (blocks/submission.ts).
    expect(sent).toEqual({
      region: 'eu',
      size: 3,
      step: 1e-7,
      notify: false,
      cc: [],
      start: '2025-01-02T10:00:00Z',
    });
    expect(ajv.validate(schema, sent), ajv.errorsText(ajv.errors)).toBe(true);
  });

  it('sends an optional text the person cleared as its valid default, since absent means "use the default" under applyDefaults', () => {
    // SEP-1034's own example: a reply whose cc list defaults to the thread's people. The form pre-fills Cc and
    // the signature; the person clears both. Slack's state then holds nothing for them, exactly as for a field
    // never filled, and the server, which asked the client to apply defaults, gets the defaults back.
    const schema = {
      type: 'object',
      properties: {
        body: { type: 'string', title: 'Reply' },
        cc: {
          type: 'array',
          title: 'Cc',
          items: { type: 'string', enum: ['ops@example.com', 'legal@example.com', 'ceo@example.com'] },
          default: ['ops@example.com', 'legal@example.com'],
        },
        signature: { type: 'string', title: 'Signature', default: 'Sent from the release bot' },
      },
      required: ['body'],
    };
    const { view, form, sent } = relayed(schema, { body: 'Ship it' });
    // Both were pre-filled, so the person cleared them.
    const drawn = JSON.stringify(view.blocks);
    expect(drawn).toContain('"initial_options"');
    expect(drawn).toContain('"initial_value":"Sent from the release bot"');
    // Except a multi-select: its boxes unticked say "nobody", which [] carries; left out, applyDefaults would cc
    // the very people the person unticked (blocks/submission.ts).
    expect(form).toEqual({ body: 'Ship it', cc: [] });
    expect(sent).toEqual({ body: 'Ship it', cc: [], signature: 'Sent from the release bot' });
  });

  it('sends an optional field the person cleared absent when its default is invalid (it was never pre-filled)', () => {
    const schema = {
      type: 'object',
      properties: {
        body: { type: 'string' },
        cc: {
          type: 'array',
          items: { type: 'string', enum: ['ops@example.com'] },
          default: ['ceo@example.com'],
        },
      },
    };
    expect(relayed(schema, { body: 'Ship it' }).sent).toEqual({ body: 'Ship it' });
  });

  it('fills a default for a property named __proto__ as an own key', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"integer","minimum":1,"default":2}}}',
    ) as Record<string, unknown>;
    const { sent } = relayed(schema, {});
    expect(JSON.stringify(sent)).toBe('{"__proto__":2}');
  });
});
