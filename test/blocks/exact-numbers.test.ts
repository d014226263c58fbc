// Numbers reach the server exactly as the person gave them: an answer drawn again from the draft (Back, a
// revisit, Respond again) is shown and kept whatever its size, and an integer a JSON number cannot carry exactly
// is refused with its own error rather than rounded to another integer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainDecimal } from '../../blocks/initial-values.js';
import { formModal } from '../../blocks/modal.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';
import type { Content } from '../../src/relay/types.js';
import { slackIssues, untouchedState } from './testing.js';

const spec = parseFormSchema({
  type: 'object',
  properties: { tolerance: { type: 'number' }, count: { type: 'integer' } },
});

/** The form drawn again with `answers` (as the bot redraws it from the draft), submitted untouched. */
function drawnAgain(answers: Content) {
  const view = formModal(spec, { questionId: 'q', server: 's', message: 'm', answers });
  return { view, read: readSubmission(spec, untouchedState(view)) };
}

const numberInputs = (view: ReturnType<typeof drawnAgain>['view']) =>
  view.blocks.flatMap((b) => (b.type === 'input' && b.element.type === 'number_input' ? [b.element] : []));

describe('a number answer drawn again', () => {
  it('is shown as a plain decimal Slack takes, and reads back as the same JSON number', () => {
    const anyNumber = fc.double({ noNaN: true, noDefaultInfinity: true });
    const safeInteger = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
    fc.assert(
      fc.property(anyNumber, safeInteger, (tolerance, count) => {
        const { view, read } = drawnAgain({ tolerance, count });
        expect(slackIssues(view)).toEqual([]);
        // As JSON, as the server receives it (-0 is sent as 0 either way).
        expect(read.ok && JSON.stringify(read.content)).toBe(JSON.stringify({ tolerance, count }));
      }),
      {
        numRuns: 300,
        examples: [
          [0.0000001, 1],
          [1e21, 0],
          [5e-324, -Number.MAX_SAFE_INTEGER],
          [-Number.MAX_VALUE, Number.MAX_SAFE_INTEGER],
          [123.456e-20, 42],
        ],
      },
    );
  });

  it('writes 1e-7 and 1e21 out in full, not as exponents', () => {
    const [tolerance] = numberInputs(drawnAgain({ tolerance: 1e-7 }).view);
    expect(tolerance?.initial_value).toBe('0.0000001');
    const [big] = numberInputs(drawnAgain({ tolerance: -1e21 }).view);
    expect(big?.initial_value).toBe('-1000000000000000000000');
  });
});

describe('number defaults and bounds', () => {
  it('pre-fills a default like 1e-7 and draws bounds like 1e21, as plain decimals', () => {
    const small = parseFormSchema({
      type: 'object',
      properties: {
        step: { type: 'number', minimum: 1e-9, maximum: 1e21, default: 1e-7 },
        huge: { type: 'number', default: 2.5e30 },
      },
    });
    const view = formModal(small, { questionId: 'q', server: 's', message: 'm' });
    expect(slackIssues(view)).toEqual([]);
    const [step, huge] = numberInputs(view);
    expect(step).toMatchObject({
      initial_value: '0.0000001',
      min_value: '0.000000001',
      max_value: '1000000000000000000000',
    });
    expect(huge?.initial_value).toBe('2500000000000000000000000000000');
    expect(readSubmission(small, untouchedState(view))).toEqual({
      ok: true,
      content: { step: 1e-7, huge: 2.5e30 },
    });
  });

  it('plainDecimal moves the point instead of writing an exponent, and Number() reads it back exactly', () => {
    const cases: [number, string][] = [
      [0, '0'],
      [-1.5, '-1.5'],
      [1e-7, '0.0000001'],
      [1.25e-7, '0.000000125'],
      [-3.4e-10, '-0.00000000034'],
      [1e21, '1000000000000000000000'],
      [1.2345e22, '12345000000000000000000'],
      [5e-324, `0.${'0'.repeat(323)}5`],
    ];
    for (const [n, text] of cases) {
      expect(plainDecimal(n)).toBe(text);
      expect(Number(text)).toBe(n);
    }
  });
});

describe('an integer past 2^53', () => {
  const typed = (value: string, locale?: 'zh-CN') =>
    readSubmission(spec, { f1_count: { f1_count: { type: 'number_input', value } } }, { locale });

  it('is refused with its own error, never sent rounded to another integer', () => {
    const beyond = fc
      .bigInt({ min: 2n ** 53n, max: 2n ** 80n })
      .chain((n) => fc.constantFrom(n, -n))
      .filter((n) => n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER));
    fc.assert(
      fc.property(beyond, (n) => {
        expect(typed(n.toString())).toEqual({
          ok: false,
          errors: {
            f1_count:
              'Too large to send exactly: enter a whole number from -9007199254740991 to 9007199254740991',
          },
        });
      }),
      { numRuns: 200, examples: [[2n ** 53n + 1n], [-(2n ** 53n)]] },
    );
    // Written with an exponent it is no safer.
    expect(typed('1e20').ok).toBe(false);
  });

  it('says so in Chinese too', () => {
    expect(typed('9007199254740993', 'zh-CN')).toEqual({
      ok: false,
      errors: { f1_count: '数值过大，无法精确发送：请输入 -9007199254740991 到 9007199254740991 之间的整数' },
    });
  });

  it('accepts the largest integers a JSON number carries exactly', () => {
    expect(typed('9007199254740991')).toEqual({ ok: true, content: { count: Number.MAX_SAFE_INTEGER } });
    expect(typed('-9007199254740991')).toEqual({ ok: true, content: { count: -Number.MAX_SAFE_INTEGER } });
  });

  it('is not pre-filled as a default, since submitting it would be refused', () => {
    const big = parseFormSchema({
      type: 'object',
      properties: { id: { type: 'integer', default: 2 ** 60 } },
    });
    expect(big.fields[0]?.default).toBeUndefined();
  });
});
