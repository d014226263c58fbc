// A text property whose choices come as an `anyOf` of consts (what Pydantic and zod write for a union of
// literals, beside MCP's titled `oneOf`): the person picks one of them, and nothing else reaches the server.
import { describe, expect, it } from 'vitest';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import { validationErrors } from '../../blocks/validate.js';
import { slackIssues, stateFor, untouchedState } from './testing.js';

const region = {
  type: 'string',
  title: 'Region',
  anyOf: [
    { const: 'eu-west-1', title: 'Ireland' },
    { const: 'us-east-1', title: 'Virginia' },
  ],
};
const meta = { questionId: 'q1', server: 'deploy', message: 'Where to?' };

describe('a text property with an anyOf of titled consts', () => {
  it('is a single-select showing the titles, and sends the const picked', () => {
    const spec = parseFormSchema({ type: 'object', properties: { region }, required: ['region'] });
    expect(spec.fields[0]).toMatchObject({ kind: 'single-select', options: [{ value: 'eu-west-1' }, {}] });
    const view = formModal(spec, meta);
    expect(slackIssues(view)).toEqual([]);
    const element = JSON.stringify(view.blocks);
    expect(element).toContain('"Ireland"');
    expect(element).toContain('"Virginia"');
    const read = readSubmission(spec, stateFor(spec, view, { region: 'us-east-1' }));
    expect(read).toEqual({ ok: true, content: { region: 'us-east-1' } });
  });

  it('refuses a value that is none of its consts', () => {
    const spec = parseFormSchema({ type: 'object', properties: { region } });
    expect(Object.keys(validationErrors(spec, { region: 'mars-1' }))).toEqual([spec.fields[0]?.blockId]);
  });

  it('pre-selects a default that is one of its consts, and sends it when left as drawn', () => {
    const spec = parseFormSchema({
      type: 'object',
      properties: { region: { ...region, default: 'eu-west-1' } },
    });
    const view = formModal(spec, meta);
    expect(JSON.stringify(view.blocks)).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"Ireland"',
    );
    expect(readSubmission(spec, untouchedState(view))).toEqual({
      ok: true,
      content: { region: 'eu-west-1' },
    });
  });

  it('an anyOf of forms that are not consts lists no choices: the field stays text', () => {
    const spec = parseFormSchema({
      type: 'object',
      properties: { contact: { type: 'string', anyOf: [{ format: 'email' }, { format: 'uri' }] } },
    });
    expect(spec.fields[0]?.kind).toBe('text');
  });
});
