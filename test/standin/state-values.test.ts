import { describe, expect, it } from 'vitest';
import { StandinError, buildStateValues } from '../../src/standin/index.js';
import { option, plain } from './helpers.js';

const colors = [option('Red', 'red'), option('Blue', 'blue')];
const input = (
  blockId: string,
  element: Record<string, unknown>,
  optional = true,
): Record<string, unknown> => ({
  type: 'input',
  block_id: blockId,
  optional,
  label: plain(blockId),
  element: { action_id: 'v', ...element },
});

const view = {
  blocks: [
    { type: 'section', block_id: 'intro', text: { type: 'mrkdwn', text: 'Fill in' } },
    input('text', { type: 'plain_text_input' }),
    input('email', { type: 'email_text_input' }),
    input('url', { type: 'url_text_input' }),
    input('num', { type: 'number_input', is_decimal_allowed: true }),
    input('date', { type: 'datepicker' }),
    input('time', { type: 'timepicker', timezone: 'Europe/Berlin' }),
    input('dt', { type: 'datetimepicker' }),
    input('radio', { type: 'radio_buttons', options: colors }),
    input('select', { type: 'static_select', option_groups: [{ label: plain('All'), options: colors }] }),
    input('boxes', { type: 'checkboxes', options: colors }),
    input('multi', { type: 'multi_static_select', options: colors }),
    input('agree', {
      type: 'checkboxes',
      options: [{ text: { type: 'mrkdwn', text: 'Yes' }, value: 'true' }],
    }),
  ],
};

const echoed = (text: string, value: string): unknown => ({
  text: { type: 'plain_text', text, emoji: true },
  value,
});
const thrown = (f: () => unknown): StandinError => {
  try {
    f();
  } catch (e) {
    if (e instanceof StandinError) return e;
  }
  throw new Error('expected a StandinError');
};

describe('state.values builder', () => {
  it('builds every element shape Slack sends for answered fields', () => {
    const values = buildStateValues(view, {
      text: 'Ada',
      email: 'ada@example.com',
      url: 'https://example.com',
      num: 36.5,
      date: '1990-04-28',
      time: '22:25',
      dt: 1628633820,
      radio: 'Blue',
      select: 'red',
      boxes: ['red', 'Blue'],
      multi: ['blue'],
      agree: true,
    });
    expect(values).toEqual({
      text: { v: { type: 'plain_text_input', value: 'Ada' } },
      email: { v: { type: 'email_text_input', value: 'ada@example.com' } },
      url: { v: { type: 'url_text_input', value: 'https://example.com' } },
      num: { v: { type: 'number_input', value: '36.5' } },
      date: { v: { type: 'datepicker', selected_date: '1990-04-28' } },
      time: { v: { type: 'timepicker', selected_time: '22:25', timezone: 'Europe/Berlin' } },
      dt: { v: { type: 'datetimepicker', selected_date_time: 1628633820 } },
      radio: { v: { type: 'radio_buttons', selected_option: echoed('Blue', 'blue') } },
      select: { v: { type: 'static_select', selected_option: echoed('Red', 'red') } },
      boxes: { v: { type: 'checkboxes', selected_options: [echoed('Red', 'red'), echoed('Blue', 'blue')] } },
      multi: { v: { type: 'multi_static_select', selected_options: [echoed('Blue', 'blue')] } },
      agree: {
        v: {
          type: 'checkboxes',
          selected_options: [{ text: { type: 'mrkdwn', text: 'Yes' }, value: 'true' }],
        },
      },
    });
  });

  it('gives unanswered inputs their empty shapes', () => {
    expect(buildStateValues(view, {})).toEqual({
      text: { v: { type: 'plain_text_input', value: null } },
      email: { v: { type: 'email_text_input', value: null } },
      url: { v: { type: 'url_text_input', value: null } },
      num: { v: { type: 'number_input', value: null } },
      date: { v: { type: 'datepicker', selected_date: null } },
      time: { v: { type: 'timepicker', selected_time: null, timezone: 'Europe/Berlin' } },
      dt: { v: { type: 'datetimepicker', selected_date_time: null } },
      radio: { v: { type: 'radio_buttons', selected_option: null } },
      select: { v: { type: 'static_select', selected_option: null } },
      boxes: { v: { type: 'checkboxes', selected_options: [] } },
      multi: { v: { type: 'multi_static_select', selected_options: [] } },
      agree: { v: { type: 'checkboxes', selected_options: [] } },
    });
  });

  it('refuses answers Slack could not send: unknown block, unknown option', () => {
    expect(thrown(() => buildStateValues(view, { intro: 'x' })).code).toBe('unknown_block');
    expect(thrown(() => buildStateValues(view, { radio: 'Green' })).code).toBe('option_not_found');
  });

  it("refuses what Slack's client would not submit: empty required field, bad numbers, lengths", () => {
    const strict = {
      blocks: [
        input('name', { type: 'plain_text_input', min_length: 2, max_length: 4 }, false),
        input('age', { type: 'number_input', is_decimal_allowed: false, min_value: '0', max_value: '150' }),
        input('tags', { type: 'multi_static_select', options: colors, max_selected_items: 1 }),
      ],
    };
    const code = (answers: Record<string, string | number | string[]>): string =>
      thrown(() => buildStateValues(strict, answers)).code;
    expect(code({})).toBe('client_validation');
    expect(code({ name: 'A' })).toBe('client_validation');
    expect(code({ name: 'Adalbert' })).toBe('client_validation');
    expect(code({ name: 'Ada', age: 1.5 })).toBe('client_validation');
    expect(code({ name: 'Ada', age: 151 })).toBe('client_validation');
    expect(code({ name: 'Ada', age: 'abc' })).toBe('client_validation');
    expect(code({ name: 'Ada', tags: ['red', 'blue'] })).toBe('client_validation');
    expect(buildStateValues(strict, { name: 'Ada', age: 150 }).age).toEqual({
      v: { type: 'number_input', value: '150' },
    });
  });
});
