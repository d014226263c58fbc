import { describe, expect, it } from 'vitest';
import {
  RUN_FORM_CALLBACK,
  RUN_JSON_BLOCK,
  loadingModal,
  noticeModal,
  readRunArguments,
  runFormModal,
  runFormSpec,
  runTargetOf,
} from '../../blocks/run-form.js';
import { stateFor, slackIssues } from './testing.js';

const flat = {
  type: 'object',
  $schema: 'http://json-schema.org/draft-07/schema#',
  properties: { title: { type: 'string', minLength: 2 }, count: { type: 'integer', default: 1 } },
  required: ['title'],
  additionalProperties: false,
};
const nested = {
  type: 'object',
  properties: { target: { type: 'object', properties: { env: { type: 'string' } }, required: ['env'] } },
  required: ['target'],
};
const json = (text: string) => ({
  [RUN_JSON_BLOCK]: { [RUN_JSON_BLOCK]: { type: 'plain_text_input', value: text } },
});

describe('runFormModal', () => {
  it('renders a flat inputSchema with the form engine, keeping the server and tool in private_metadata', () => {
    const view = runFormModal({
      server: 'gh',
      tool: 'create_issue',
      description: 'Opens <!here>',
      inputSchema: flat,
    });
    expect(slackIssues(view)).toEqual([]);
    expect(view.callback_id).toBe(RUN_FORM_CALLBACK);
    expect(runTargetOf(view)).toEqual({ server: 'gh', tool: 'create_issue', inputSchema: flat });
    expect(view.blocks.filter((b) => (b as { type: string }).type === 'input')).toHaveLength(2);
    expect(JSON.stringify(view.blocks)).toContain('Opens &lt;!here&gt;');
  });

  it('leaves the schema out of private_metadata when it would not fit, keeping the conversation', () => {
    const big = { type: 'object', properties: { a: { type: 'string', description: 'd'.repeat(4000) } } };
    const view = runFormModal({ server: 'gh', tool: 't', inputSchema: big, channel: 'C0TEAM' });
    expect(view.private_metadata?.length).toBeLessThanOrEqual(3000);
    expect(runTargetOf(view)).toEqual({ server: 'gh', tool: 't', channel: 'C0TEAM' });
  });

  it('falls back to one JSON field, prefilled from defaults, for schemas the form engine cannot render', () => {
    expect(runFormSpec(nested)).toBeUndefined();
    const view = runFormModal({
      server: 'ops',
      tool: 'deploy',
      inputSchema: {
        ...nested,
        properties: { ...nested.properties, dry: { type: 'boolean', default: true } },
      },
      locale: 'zh-CN',
    });
    expect(slackIssues(view)).toEqual([]);
    const input = view.blocks.find((b) => (b as { block_id?: string }).block_id === RUN_JSON_BLOCK);
    expect(JSON.stringify(input)).toContain('参数（JSON）');
    expect(JSON.stringify(input)).toContain('\\"dry\\": true');
  });

  it('has loading and notice views that are valid modals without a submit button', () => {
    for (const view of [loadingModal({ server: 's', tool: 't' }), noticeModal('Running…', 'zh-CN')]) {
      expect(slackIssues({ ...view, submit: { type: 'plain_text', text: 'x' } })).toEqual([]);
      expect(view.submit).toBeUndefined();
    }
  });
});

describe('readRunArguments', () => {
  it('types form answers and reports field errors by block', () => {
    const spec = runFormSpec(flat);
    if (!spec) throw new Error('flat schema should render');
    const view = runFormModal({ server: 's', tool: 't', inputSchema: flat });
    expect(readRunArguments(flat, stateFor(spec, view, { title: 'Bug', count: 3 }))).toEqual({
      ok: true,
      args: { title: 'Bug', count: 3 },
    });
    const short = readRunArguments(flat, stateFor(spec, view, { title: 'B' }));
    expect(short).toMatchObject({
      ok: false,
      errors: { [spec.fields[0]?.blockId ?? '']: expect.any(String) as unknown },
    });
  });

  it('parses and checks JSON arguments against the whole schema', () => {
    expect(readRunArguments(nested, json('{"target": {"env": "prod"}}'))).toEqual({
      ok: true,
      args: { target: { env: 'prod' } },
    });
    expect(readRunArguments(nested, json('{oops'))).toEqual({
      ok: false,
      errors: { [RUN_JSON_BLOCK]: 'This is not valid JSON.' },
    });
    expect(readRunArguments(nested, json('[1]'), 'zh-CN')).toMatchObject({ ok: false });
    const missing = readRunArguments(nested, json('{"target": {}}'));
    expect(JSON.stringify(missing)).toContain("/target must have required property 'env'");
  });

  it('leaves checking to the server when the schema does not compile', () => {
    const odd = { type: 'object', properties: { a: { type: 'nonsense' } }, required: ['a'] };
    expect(readRunArguments(odd, json('{"a": 1}'))).toEqual({ ok: true, args: { a: 1 } });
  });
});
