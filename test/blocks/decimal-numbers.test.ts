// Numbers as a person reads them: `multipleOf` checked on the decimals the schema and the answer are written in
// (JSON Schema: valid when the division gives an integer, mathematically), not in binary floating point, where
// 19.99 / 0.01 is 1998.9999999999998; and a number typed with more digits than a JSON number carries is refused,
// not sent as another number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUN_JSON_BLOCK, readRunArguments } from '../../blocks/run-form.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { readSubmission } from '../../blocks/submission.js';

type Raw = Record<string, unknown>;

const formOf = (n: Raw) => ({ type: 'object', properties: { n } });
/** A tool schema the form engine cannot draw (a nested object), so its arguments are typed as JSON. */
const jsonToolOf = (n: Raw) => ({
  type: 'object',
  properties: { n, nested: { type: 'object', properties: {} } },
});
const typed = (value: string) => ({ f0_n: { f0_n: { type: 'number_input', value } } });
const jsonTyped = (text: string) => ({
  [RUN_JSON_BLOCK]: { [RUN_JSON_BLOCK]: { type: 'plain_text_input', value: text } },
});

/** Whether each place a number is checked against a sender's schema takes `text` for a field `n` of `rule`. */
function takes(rule: Raw, text: string) {
  return {
    answer: readSubmission(parseFormSchema(formOf(rule)), typed(text)).ok,
    runForm: readRunArguments(formOf(rule), typed(text)).ok,
    runJson: readRunArguments(jsonToolOf(rule), jsonTyped(`{"n": ${text}}`)).ok,
  };
}
const everywhere = (ok: boolean) => ({ answer: ok, runForm: ok, runJson: ok });

describe('multipleOf on decimals', () => {
  it('takes the multiples a person reads as such: 19.99, 0.07 and 4.35 of 0.01, 0.3 and 0.7 of 0.1, 1.05 of 0.05', () => {
    const cases: [number, string][] = [
      [0.01, '19.99'],
      [0.01, '0.07'],
      [0.01, '4.35'],
      [0.1, '0.3'],
      [0.1, '0.7'],
      [0.05, '1.05'],
      [0.001, '-2.675'],
    ];
    for (const [multipleOf, text] of cases)
      expect([multipleOf, text, takes({ type: 'number', multipleOf }, text)]).toEqual([
        multipleOf,
        text,
        everywhere(true),
      ]);
  });

  it('still refuses real non-multiples, naming the step: 19.995 of 0.01, 0.25 of 0.1', () => {
    expect(takes({ type: 'number', multipleOf: 0.01 }, '19.995')).toEqual(everywhere(false));
    expect(takes({ type: 'number', multipleOf: 0.1 }, '0.25')).toEqual(everywhere(false));
    const spec = parseFormSchema(formOf({ type: 'number', multipleOf: 0.01 }));
    expect(readSubmission(spec, typed('19.995'))).toEqual({
      ok: false,
      errors: { f0_n: 'Must be a multiple of 0.01' },
    });
    expect(readSubmission(spec, typed('19.995'), { locale: 'zh-CN' })).toEqual({
      ok: false,
      errors: { f0_n: '必须是 0.01 的倍数' },
    });
    expect(
      readRunArguments(jsonToolOf({ type: 'number', multipleOf: 0.1 }), jsonTyped('{"n": 0.25}')),
    ).toEqual({
      ok: false,
      errors: { [RUN_JSON_BLOCK]: expect.stringContaining('must be multiple of 0.1') as unknown },
    });
  });

  it('k × step is taken and k × step + step / 2 refused, for decimal steps of up to 6 decimals (property)', () => {
    // step = units / 10^decimals; the values are built as decimal text, as a person types them.
    const step = fc.record({
      units: fc.integer({ min: 1, max: 999_999 }),
      decimals: fc.integer({ min: 0, max: 6 }),
    });
    const k = fc.integer({ min: -9_999_999, max: 9_999_999 });
    fc.assert(
      fc.property(step, k, ({ units, decimals }, times) => {
        const multipleOf = Number(`${units}e-${decimals}`);
        const multiple = `${times * units}e-${decimals}`;
        // (2k + 1) × step / 2, written over one more decimal: (2k + 1) × units × 5 / 10^(decimals + 1).
        const halfWay = `${(2 * times + 1) * units * 5}e-${decimals + 1}`;
        const rule = { type: 'number', multipleOf };
        expect(takes(rule, String(Number(multiple)))).toEqual(everywhere(true));
        expect(takes(rule, String(Number(halfWay)))).toEqual(everywhere(false));
      }),
      {
        numRuns: 200,
        examples: [
          [{ units: 1, decimals: 2 }, 1999],
          [{ units: 1, decimals: 1 }, 3],
          [{ units: 5, decimals: 2 }, 21],
          [{ units: 1, decimals: 6 }, 1_234_567],
        ],
      },
    );
  });

  it('takes a multiple whose quotient reaches 1e21 (ajv read it with parseInt, as 1)', () => {
    expect(takes({ type: 'number', multipleOf: 1 }, '1000000000000000000000')).toEqual(everywhere(true));
    expect(takes({ type: 'number', multipleOf: 0.5 }, '1000000000000000000000')).toEqual(everywhere(true));
    // 10^17 is a double exactly, and leaves 1 when divided by 3.
    expect(takes({ type: 'number', multipleOf: 3 }, '100000000000000000')).toEqual(everywhere(false));
  });

  it('pre-fills a default that is a decimal multiple (19.99 of 0.01), as it would be accepted', () => {
    const spec = parseFormSchema(formOf({ type: 'number', multipleOf: 0.01, default: 19.99 }));
    expect(spec.fields[0]?.default).toBe(19.99);
    const refused = parseFormSchema(formOf({ type: 'number', multipleOf: 0.01, default: 19.995 }));
    expect(refused.fields[0]?.default).toBeUndefined();
  });
});

describe('a decimal a JSON number cannot carry', () => {
  const read = (kind: 'number' | 'integer', text: string, locale?: 'zh-CN') =>
    readSubmission(parseFormSchema(formOf({ type: kind })), typed(text), { locale });

  it('is refused in a number field, never sent as another number', () => {
    // Each reads as a double whose JSON text is another number: …992, 0.1, 0.
    for (const text of ['9007199254740993', '0.1000000000000000001', '1.23456789012345678', '1e-400'])
      expect([text, read('number', text)]).toEqual([
        text,
        { ok: false, errors: { f0_n: 'Too precise to send exactly: use at most 15 significant digits' } },
      ]);
  });

  it('says so in Chinese too', () => {
    expect(read('number', '9007199254740993', 'zh-CN')).toEqual({
      ok: false,
      errors: { f0_n: '精度过高，无法精确发送：请最多使用 15 位有效数字' },
    });
  });

  it('takes any way of writing a number a JSON number carries: 1.50, 1e3, 0.30000000000000004, -0', () => {
    const cases: [string, number][] = [
      ['1.50', 1.5],
      ['1e3', 1000],
      ['0.30000000000000004', 0.30000000000000004],
      ['9007199254740992', 2 ** 53],
      ['-0', -0],
      ['.5', 0.5],
    ];
    for (const [text, n] of cases)
      expect([text, read('number', text)]).toEqual([text, { ok: true, content: { n } }]);
  });

  it('is refused in an integer field as no whole number: 1.0000000000000001 was sent as 1', () => {
    expect(read('integer', '1.0000000000000001')).toEqual({
      ok: false,
      errors: { f0_n: 'Enter a whole number' },
    });
  });
});
