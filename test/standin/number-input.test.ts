// A number_input as Slack takes it: its bounds and initial value (views.open and its kin refuse a view that breaks
// them) and what a person can type into it (Slack's client submits nothing else). Slack's element reference:
// min_value and max_value are strings, min not above max, and "Decimal numbers are only allowed when
// is_decimal_allowed is equal to true". Numbers are compared as written, never as floats.
import { describe, expect, it } from 'vitest';
import { StandinError, buildStateValues, formatIssue, validateView } from '../../src/standin/index.js';
import { modal, plain } from './helpers.js';

const input = (blockId: string, element: Record<string, unknown>): Record<string, unknown> => ({
  type: 'input',
  block_id: blockId,
  optional: true,
  label: plain(blockId),
  element: { action_id: 'v', type: 'number_input', ...element },
});

const issuesOf = (element: Record<string, unknown>): string[] =>
  validateView(modal({ blocks: [input('n', element)] })).map(formatIssue);

const WHOLE_ONLY =
  '[ERROR] must be a whole number when is_decimal_allowed is false [json-pointer:/view/blocks/0/element';

describe('number_input in a view', () => {
  it('refuses decimal bounds and initial values when decimals are not allowed', () => {
    const whole = { is_decimal_allowed: false, min_value: '1.5', max_value: '9.0', initial_value: '2.5' };
    expect(issuesOf(whole)).toEqual([
      `${WHOLE_ONLY}/initial_value]`,
      `${WHOLE_ONLY}/min_value]`,
      `${WHOLE_ONLY}/max_value]`,
    ]);
    expect(
      issuesOf({ is_decimal_allowed: false, min_value: '-2', max_value: '9', initial_value: '0' }),
    ).toEqual([]);
    expect(issuesOf({ ...whole, is_decimal_allowed: true })).toEqual([]);
  });

  it('compares min_value and max_value as written, not as floats', () => {
    // As floats both are 0.3: exactly, the minimum is above the maximum.
    const bounds = { is_decimal_allowed: true, min_value: '0.30000000000000001', max_value: '0.3' };
    expect(issuesOf(bounds)).toEqual([
      '[ERROR] must be less than or equal to max_value [json-pointer:/view/blocks/0/element/min_value]',
    ]);
    expect(issuesOf({ ...bounds, min_value: '0.30' })).toEqual([]);
    expect(issuesOf({ ...bounds, min_value: '-0.5', max_value: '-1' })).toHaveLength(1);
  });
});

describe('number_input on submit', () => {
  const view = {
    blocks: [
      input('count', { is_decimal_allowed: false, min_value: '-2', max_value: '9' }),
      input('ratio', { is_decimal_allowed: true, min_value: '0.1', max_value: '0.3' }),
    ],
  };
  /** Why Slack's client would not submit these answers (every refusal is `client_validation`). */
  const refusal = (answers: Record<string, string>): string => {
    try {
      buildStateValues(view, answers);
    } catch (e) {
      if (e instanceof StandinError && e.code === 'client_validation') return e.message;
    }
    throw new Error('expected a client_validation refusal');
  };

  it('refuses a decimal on a whole-number input, even one that is whole as a float', () => {
    expect(refusal({ count: '1.0' })).toContain('decimals not allowed');
    expect(refusal({ count: '9.0000000000000001' })).toContain('decimals not allowed');
  });

  it('refuses anything but a plain decimal', () => {
    for (const typed of ['0x10', '1e1', ' 5', '2.', '.5', '+3', 'Infinity'])
      expect(refusal({ count: typed })).toContain('not a number');
  });

  it('refuses values past the bounds, compared as written', () => {
    expect(refusal({ count: '-3' })).toContain('below min_value');
    expect(refusal({ count: '10' })).toContain('above max_value');
    // As floats these equal the bounds; exactly, they are past them.
    expect(refusal({ ratio: '0.30000000000000001' })).toContain('above max_value');
    expect(refusal({ ratio: '0.09999999999999999999' })).toContain('below min_value');
    expect(buildStateValues(view, { count: '-0', ratio: '0.300' })).toEqual({
      count: { v: { type: 'number_input', value: '-0' } },
      ratio: { v: { type: 'number_input', value: '0.300' } },
    });
  });
});
