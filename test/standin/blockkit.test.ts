import { describe, expect, it } from 'vitest';
import {
  formatIssue,
  validateMessage,
  validateMessageBlocks,
  validateView,
} from '../../src/standin/index.js';
import { modal, option, plain } from './helpers.js';

const messages = (issues: ReturnType<typeof validateView>): string[] => issues.map(formatIssue);
const section = (text: string): Record<string, unknown> => ({
  type: 'section',
  text: { type: 'mrkdwn', text },
});
const input = (blockId: string, element: Record<string, unknown>): Record<string, unknown> => ({
  type: 'input',
  block_id: blockId,
  label: plain('Label'),
  element: { action_id: 'v', ...element },
});

describe('Block Kit validator: messages', () => {
  it('accepts a card of sections and buttons', () => {
    expect(validateMessageBlocks([section('hi'), { type: 'divider' }])).toEqual([]);
  });

  it('rejects more than 50 blocks in a message', () => {
    const blocks = Array.from({ length: 51 }, (_, i) => ({ ...section('x'), block_id: `b${i}` }));
    expect(messages(validateMessageBlocks(blocks))).toEqual([
      '[ERROR] must be less than 51 items [json-pointer:/blocks]',
    ]);
  });

  it('rejects input blocks in a message', () => {
    const issues = validateMessageBlocks([input('a', { type: 'plain_text_input' })]);
    expect(issues).toEqual([
      { pointer: '/blocks/0/type', message: 'input blocks are only allowed in modals and Home tabs' },
    ]);
  });

  it('rejects section text over 3000 characters and more than 10 fields', () => {
    const fields = Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'f' }));
    const issues = validateMessageBlocks([
      section('x'.repeat(3001)),
      { type: 'section', block_id: 'f', fields },
    ]);
    expect(issues.map((i) => i.pointer)).toEqual(['/blocks/0/text/text', '/blocks/1/fields']);
  });

  it('counts characters as code points, so 3000 emoji fit', () => {
    expect(validateMessageBlocks([section('😀'.repeat(3000))])).toEqual([]);
  });

  it('rejects unknown block types, empty text and bad text types', () => {
    const issues = validateMessageBlocks([
      { type: 'carousel' },
      { type: 'section', block_id: 'e', text: { type: 'mrkdwn', text: '' } },
      { type: 'header', text: { type: 'markdown', text: 'h' } },
    ]);
    expect(messages(issues)).toEqual([
      '[ERROR] unsupported type: carousel [json-pointer:/blocks/0/type]',
      '[ERROR] must be more than 0 characters [json-pointer:/blocks/1/text/text]',
      '[ERROR] unsupported type: markdown [json-pointer:/blocks/2/text/type]',
    ]);
  });

  it('rejects duplicate block_ids, a header over 150 and more than 25 actions', () => {
    const buttons = Array.from({ length: 26 }, (_, i) => ({
      type: 'button',
      action_id: `a${i}`,
      text: plain('b'),
    }));
    const issues = validateMessageBlocks([
      { type: 'header', block_id: 'x', text: plain('h'.repeat(151)) },
      { type: 'actions', block_id: 'x', elements: buttons },
    ]);
    expect(issues.map((i) => i.pointer)).toEqual([
      '/blocks/0/text/text',
      '/blocks/1/block_id',
      '/blocks/1/elements',
    ]);
  });

  it('checks button text 75, value 2000, url 3000 and context at most 10 elements', () => {
    const button = {
      type: 'button',
      action_id: 'b',
      text: plain('t'.repeat(76)),
      value: 'v'.repeat(2001),
      url: 'u'.repeat(3001),
    };
    const context = { type: 'context', elements: Array.from({ length: 11 }, () => plain('c')) };
    const issues = validateMessageBlocks([{ type: 'actions', elements: [button] }, context]);
    expect(issues.map((i) => i.pointer)).toEqual([
      '/blocks/0/elements/0/text/text',
      '/blocks/0/elements/0/value',
      '/blocks/0/elements/0/url',
      '/blocks/1/elements',
    ]);
  });
});

describe('Block Kit validator: modals', () => {
  it('accepts a modal with every input element the form engine uses', () => {
    const opts = [option('Red', 'red'), option('Blue', 'blue')];
    const view = modal({
      blocks: [
        input('s', { type: 'plain_text_input', min_length: 0, max_length: 3000, multiline: true }),
        input('e', { type: 'email_text_input' }),
        input('u', { type: 'url_text_input' }),
        input('n', { type: 'number_input', is_decimal_allowed: false, min_value: '1', max_value: '9' }),
        input('d', { type: 'datepicker', initial_date: '2026-01-31' }),
        input('t', { type: 'timepicker', initial_time: '23:59' }),
        input('dt', { type: 'datetimepicker', initial_date_time: 1628633820 }),
        input('c', { type: 'checkboxes', options: opts, initial_options: [opts[0]] }),
        input('r', { type: 'radio_buttons', options: opts, initial_option: opts[1] }),
        input('ss', { type: 'static_select', option_groups: [{ label: plain('G'), options: opts }] }),
        input('ms', { type: 'multi_static_select', options: opts, max_selected_items: 2 }),
        { type: 'header', text: plain('Head') },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'ctx' }] },
      ],
    });
    expect(validateView(view)).toEqual([]);
  });

  it('reports a modal title over 24 characters like Slack', () => {
    expect(messages(validateView(modal({ title: plain('t'.repeat(25)) })))).toEqual([
      '[ERROR] must be less than 25 characters [json-pointer:/view/title/text]',
    ]);
  });

  it('requires submit when the view has inputs, and plain_text title/submit/close', () => {
    const noSubmit = modal();
    delete noSubmit.submit;
    expect(validateView(noSubmit).map((i) => i.pointer)).toEqual(['/view']);
    const issues = validateView(modal({ close: { type: 'mrkdwn', text: 'x' } }));
    expect(messages(issues)).toEqual(['[ERROR] must be plain_text [json-pointer:/view/close/type]']);
  });

  it('checks private_metadata 3000, callback_id 255, block_id 255 and 100 blocks', () => {
    const blocks = Array.from({ length: 101 }, (_, i) => ({
      type: 'divider',
      block_id: i === 0 ? 'b'.repeat(256) : `d${i}`,
    }));
    const issues = validateView(
      modal({ private_metadata: 'm'.repeat(3001), callback_id: 'c'.repeat(256), blocks }),
    );
    expect(issues.map((i) => i.pointer)).toEqual([
      '/view/private_metadata',
      '/view/callback_id',
      '/view/blocks',
      '/view/blocks/0/block_id',
    ]);
  });

  it('checks label and hint 2000, placeholder 150', () => {
    const block = { ...input('a', { type: 'plain_text_input', placeholder: plain('p'.repeat(151)) }) };
    Object.assign(block, { label: plain('l'.repeat(2001)), hint: plain('h'.repeat(2001)) });
    expect(validateView(modal({ blocks: [block] })).map((i) => i.pointer)).toEqual([
      '/view/blocks/0/label/text',
      '/view/blocks/0/hint/text',
      '/view/blocks/0/element/placeholder/text',
    ]);
  });

  it('checks option text 75 and value 150, radio/checkbox 10 and select 100 options', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => option(`o${i}`));
    const many = Array.from({ length: 101 }, (_, i) => option(`o${i}`));
    const issues = validateView(
      modal({
        blocks: [
          input('a', { type: 'static_select', options: [option('t'.repeat(76), 'v'.repeat(151))] }),
          input('b', { type: 'radio_buttons', options: eleven }),
          input('c', { type: 'checkboxes', options: eleven }),
          input('d', { type: 'multi_static_select', options: many }),
          input('e', { type: 'static_select', option_groups: [{ label: plain('g'), options: many }] }),
        ],
      }),
    );
    expect(messages(issues)).toEqual([
      '[ERROR] must be less than 76 characters [json-pointer:/view/blocks/0/element/options/0/text/text]',
      '[ERROR] must be less than 151 characters [json-pointer:/view/blocks/0/element/options/0/value]',
      '[ERROR] must be less than 11 items [json-pointer:/view/blocks/1/element/options]',
      '[ERROR] must be less than 11 items [json-pointer:/view/blocks/2/element/options]',
      '[ERROR] must be less than 101 items [json-pointer:/view/blocks/3/element/options]',
      '[ERROR] must be less than 101 items [json-pointer:/view/blocks/4/element/option_groups/0/options]',
    ]);
  });

  it('requires initial options to match an option exactly', () => {
    const opts = [option('Red', 'red')];
    const issues = validateView(
      modal({
        blocks: [
          input('a', {
            type: 'radio_buttons',
            options: opts,
            initial_option: { text: plain('Red '), value: 'red' },
          }),
          input('b', { type: 'checkboxes', options: opts, initial_options: [option('Red', 'RED')] }),
        ],
      }),
    );
    expect(issues.map((i) => i.pointer)).toEqual([
      '/view/blocks/0/element/initial_option',
      '/view/blocks/1/element/initial_options/0',
    ]);
  });

  it('requires is_decimal_allowed on number_input and rejects unknown element types', () => {
    const issues = validateView(
      modal({ blocks: [input('n', { type: 'number_input' }), input('x', { type: 'color_picker' })] }),
    );
    expect(messages(issues)).toEqual([
      '[ERROR] missing required field: is_decimal_allowed [json-pointer:/view/blocks/0/element]',
      '[ERROR] unsupported type: color_picker [json-pointer:/view/blocks/1/element/type]',
    ]);
  });

  it('rejects a button as an input element and a text input in an actions block', () => {
    const issues = validateView(
      modal({
        blocks: [
          input('a', { type: 'button', text: plain('b') }),
          { type: 'actions', elements: [{ type: 'plain_text_input', action_id: 'p' }] },
        ],
      }),
    );
    expect(issues.map((i) => i.pointer)).toEqual([
      '/view/blocks/0/element/type',
      '/view/blocks/1/elements/0/type',
    ]);
  });
});

describe('Block Kit validator: the checks the form engine relies on', () => {
  it('rejects number_input bounds and initial values that are not decimal strings', () => {
    const element = { type: 'number_input', is_decimal_allowed: true, min_value: '1e3', initial_value: ' 5' };
    const issues = validateView(modal({ blocks: [input('n', element)] }));
    expect(messages(issues)).toEqual([
      '[ERROR] must be a decimal number [json-pointer:/view/blocks/0/element/initial_value]',
      '[ERROR] must be a decimal number [json-pointer:/view/blocks/0/element/min_value]',
    ]);
  });

  it('rejects a plain_text_input whose min_length is above its max_length', () => {
    const element = { type: 'plain_text_input', min_length: 10, max_length: 5 };
    expect(messages(validateView(modal({ blocks: [input('t', element)] })))).toEqual([
      '[ERROR] must be less than or equal to max_length [json-pointer:/view/blocks/0/element/min_length]',
    ]);
  });

  it('rejects two options with the same value', () => {
    const element = { type: 'static_select', options: [option('A', 'v'), option('B', 'v')] };
    expect(messages(validateView(modal({ blocks: [input('s', element)] })))).toEqual([
      '[ERROR] duplicate option value: v [json-pointer:/view/blocks/0/element/options/1/value]',
    ]);
  });

  it('rejects text with a split surrogate pair, in blocks and in a message text', () => {
    expect(messages(validateMessageBlocks([section('a\uD83D')]))).toEqual([
      '[ERROR] must be valid UTF-16 (a split surrogate pair) [json-pointer:/blocks/0/text/text]',
    ]);
    expect(messages(validateMessage({ text: '\uDE00b' }))).toEqual([
      '[ERROR] must be valid UTF-16 (a split surrogate pair) [json-pointer:/text]',
    ]);
    expect(validateMessage({ text: '😀 ok', blocks: [section('😀')] })).toEqual([]);
  });
});
