import { describe, expect, it } from 'vitest';
import { FORM_CALLBACK } from '../../blocks/ids.js';
import { formModal, questionIdOf, viewLocaleOf } from '../../blocks/modal.js';
import { reviewModal } from '../../blocks/review.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { slackIssues } from './testing.js';

type Block = Record<string, unknown> & { element: Record<string, unknown> };
const meta = { questionId: 'q1', server: 'github', message: 'Please answer' };

function modalFor(properties: Record<string, unknown>, required: string[] = [], input = meta) {
  const view = formModal(parseFormSchema({ type: 'object', properties, required }), input);
  expect(slackIssues(view)).toEqual([]);
  return view;
}
const inputs = (properties: Record<string, unknown>, required: string[] = []) =>
  modalFor(properties, required).blocks.filter(
    (b) => (b as unknown as Block).type === 'input',
  ) as unknown as Block[];
const elementOf = (property: unknown) => inputs({ p: property })[0]?.element;
const enumOf = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);

describe('formModal: the element for each kind', () => {
  it('string → plain_text_input with length bounds; multiline above 150 characters', () => {
    expect(elementOf({ type: 'string', minLength: 2, maxLength: 50 })).toEqual({
      type: 'plain_text_input',
      action_id: 'f0_p',
      min_length: 2,
      max_length: 50,
    });
    expect(elementOf({ type: 'string', maxLength: 151 })).toMatchObject({ multiline: true, max_length: 151 });
    expect(elementOf({ type: 'string', maxLength: 5000 })).not.toHaveProperty('max_length');
  });

  it('formats → email, url, date and datetime pickers', () => {
    expect(elementOf({ type: 'string', format: 'email' })?.type).toBe('email_text_input');
    expect(elementOf({ type: 'string', format: 'uri' })?.type).toBe('url_text_input');
    expect(elementOf({ type: 'string', format: 'date' })?.type).toBe('datepicker');
    expect(elementOf({ type: 'string', format: 'date-time' })?.type).toBe('datetimepicker');
  });

  it('date-time says which time zone applies', () => {
    const [block] = inputs({ p: { type: 'string', format: 'date-time', description: 'Start' } });
    expect(block?.hint).toMatchObject({
      text: 'Start\nPick the time in your own time zone; it is sent as UTC.',
    });
  });

  it('number and integer → number_input, decimals only for number, bounds as strings', () => {
    expect(elementOf({ type: 'number', minimum: -1.5, maximum: 10 })).toEqual({
      type: 'number_input',
      action_id: 'f0_p',
      is_decimal_allowed: true,
      min_value: '-1.5',
      max_value: '10',
    });
    expect(elementOf({ type: 'integer' })).toMatchObject({ is_decimal_allowed: false });
  });

  it('gives an integer field the whole-number bounds its fractional ones allow, and none when none fits', () => {
    expect(elementOf({ type: 'integer', minimum: 0.5, maximum: 9.9 })).toMatchObject({
      is_decimal_allowed: false,
      min_value: '1',
      max_value: '9',
    });
    expect(elementOf({ type: 'integer', minimum: -2.5 })).toMatchObject({ min_value: '-2' });
    const none = elementOf({ type: 'integer', minimum: 0.2, maximum: 0.8 });
    expect(none).not.toHaveProperty('min_value');
    expect(none).not.toHaveProperty('max_value');
  });

  it('boolean → Yes/No radio buttons so both answers can be given', () => {
    const element = elementOf({ type: 'boolean' });
    expect(element?.type).toBe('radio_buttons');
    expect((element?.options as { text: { text: string } }[]).map((o) => o.text.text)).toEqual(['Yes', 'No']);
  });

  it('single-select: radio buttons up to 5 options, a select up to 100, an external select (type to search) beyond', () => {
    expect(elementOf({ type: 'string', enum: enumOf(5) })?.type).toBe('radio_buttons');
    expect(elementOf({ type: 'string', enum: enumOf(100) })).toMatchObject({ type: 'static_select' });
    expect(elementOf({ type: 'string', enum: enumOf(101), default: 'v100' })).toEqual({
      type: 'external_select',
      action_id: expect.any(String) as unknown,
      placeholder: { type: 'plain_text', text: 'Type to search', emoji: true },
      min_query_length: 1,
      initial_option: { text: { type: 'plain_text', text: 'v100', emoji: true }, value: 'o100' },
    });
    expect(elementOf({ type: 'array', items: { enum: enumOf(101) }, maxItems: 2 })).toMatchObject({
      type: 'multi_external_select',
      min_query_length: 1,
      max_selected_items: 2,
    });
  });

  it('multi-select: checkboxes up to 5 options, else multi_static_select limited by maxItems', () => {
    expect(elementOf({ type: 'array', items: { enum: enumOf(3) } })?.type).toBe('checkboxes');
    expect(elementOf({ type: 'array', items: { enum: enumOf(8) }, maxItems: 3 })).toMatchObject({
      type: 'multi_static_select',
      max_selected_items: 3,
    });
  });

  it('option values are indexes, so consts longer than 150 characters still fit', () => {
    const element = elementOf({ type: 'string', enum: ['x'.repeat(400), 'y'] });
    expect((element?.options as { value: string }[]).map((o) => o.value)).toEqual(['o0', 'o1']);
  });
});

describe('formModal: defaults, required and labels', () => {
  it('pre-fills defaults on every kind, initial options identical to the options', () => {
    const [text, num, bool, one, many, date, when] = inputs({
      a: { type: 'string', default: 'Zed' },
      b: { type: 'integer', default: 7 },
      c: { type: 'boolean', default: false },
      d: { type: 'string', enum: enumOf(8), default: 'v3' },
      e: { type: 'array', items: { enum: enumOf(3) }, default: ['v2'] },
      f: { type: 'string', format: 'date', default: '2026-12-02' },
      g: { type: 'string', format: 'date-time', default: '2026-12-02T10:00:00Z' },
    }).map((b) => b.element);
    expect(text?.initial_value).toBe('Zed');
    expect(num?.initial_value).toBe('7');
    expect(bool?.initial_option).toEqual((bool?.options as unknown[])[1]);
    expect(one?.initial_option).toEqual((one?.options as unknown[])[3]);
    expect(many?.initial_options).toEqual([(many?.options as unknown[])[2]]);
    expect(date?.initial_date).toBe('2026-12-02');
    expect(when?.initial_date_time).toBe(1796205600);
  });

  it('required fields are not optional; others are; a required multi-select without minItems may stay empty', () => {
    const blocks = inputs(
      { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'array', items: { enum: ['x'] } } },
      ['a', 'c'],
    );
    expect(blocks.map((b) => b.optional)).toEqual([false, true, true]);
  });

  it('labels with the title, hints with the description', () => {
    const [block] = inputs({ p: { type: 'string', title: 'Your name', description: 'As on your passport' } });
    expect(block?.label).toEqual({ type: 'plain_text', text: 'Your name', emoji: true });
    expect(block?.hint).toEqual({ type: 'plain_text', text: 'As on your passport', emoji: true });
  });

  it('a title too long for a label is cut there and shown in full in the hint', () => {
    const title = '标题😀'.repeat(120);
    const [block] = inputs({ p: { type: 'string', title, description: 'd' } });
    const label = (block?.label as { text: string }).text;
    expect(label.length).toBeLessThanOrEqual(300);
    expect(label.endsWith('…')).toBe(true);
    expect((block?.hint as { text: string }).text).toBe(`${title}\nd`);
  });
});

describe('formModal: the view', () => {
  it('carries the callback, the question id, close notification and an escaped message', () => {
    const view = modalFor({}, [], {
      questionId: 'q-9',
      server: 'a-very-long-server-name-indeed',
      message: '<!channel> hi',
    });
    expect(view).toMatchObject({ type: 'modal', callback_id: FORM_CALLBACK, notify_on_close: true });
    expect(view.title.text).toBe('a-very-long-server-name…');
    expect(view.blocks[1]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '&lt;!channel&gt; hi' },
    });
    expect(questionIdOf(view)).toBe('q-9');
  });

  it('shows no message section when the message has nothing visible', () => {
    expect(modalFor({}, [], { ...meta, message: ' \u0000\u0001 ' }).blocks).toHaveLength(1);
  });

  it('names the language it is drawn in beside the question id, and so does its review', () => {
    const spec = parseFormSchema({ type: 'object', properties: { p: { type: 'string' } } });
    const chinese = formModal(spec, { ...meta, locale: 'zh-CN' });
    expect(JSON.parse(chinese.private_metadata)).toEqual({ q: 'q1', l: 'zh-CN' });
    expect(viewLocaleOf(chinese)).toBe('zh-CN');
    expect(viewLocaleOf(formModal(spec, { ...meta, locale: 'en' }))).toBe('en');
    const review = reviewModal(spec, { questionId: 'q1', server: 's', content: {}, locale: 'zh-CN' });
    expect(viewLocaleOf(review)).toBe('zh-CN');
    // Drawn without a language (the caller did not know it): the view names none, and a submit asks Slack.
    expect(viewLocaleOf(formModal(spec, meta))).toBeUndefined();
  });

  it('viewLocaleOf names only a language the bot speaks', () => {
    expect(viewLocaleOf({})).toBeUndefined();
    expect(viewLocaleOf({ private_metadata: 'not json' })).toBeUndefined();
    expect(viewLocaleOf({ private_metadata: '{"q":"q1","l":"fr"}' })).toBeUndefined();
    expect(viewLocaleOf({ private_metadata: '{"q":"q1","l":1}' })).toBeUndefined();
  });

  it('questionIdOf ignores views that are not ours', () => {
    expect(questionIdOf({})).toBeUndefined();
    expect(questionIdOf({ private_metadata: 'not json' })).toBeUndefined();
    expect(questionIdOf({ private_metadata: '{"q":1}' })).toBeUndefined();
  });

  it('every page of the largest form the parser accepts, with the longest message, stays within Slack view limits', () => {
    const options = Array.from({ length: 250 }, (_, i) => ({
      const: `v${i}`,
      title: `${'長'.repeat(60)}${i}`,
    }));
    const properties = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [
        `p${i}`,
        i < 2
          ? { type: 'string', oneOf: options }
          : { type: 'string', title: `Password ${'長'.repeat(200)}` },
      ]),
    );
    const spec = parseFormSchema({ type: 'object', properties });
    for (let page = 0; page < 5; page++) {
      const view = formModal(spec, { ...meta, message: '<\u4e2d😀'.repeat(20_000), page });
      expect(slackIssues(view)).toEqual([]);
      expect(view.blocks.filter((b) => (b as unknown as Block).type === 'input')).toHaveLength(20);
      expect(new TextEncoder().encode(JSON.stringify(view)).length).toBeLessThanOrEqual(250_000);
    }
  });
});
