// Typed JSON arguments keep the numbers the person typed: a number JSON.parse would round to another double
// (9007199254740993 → …992, 0.1000000000000000001 → 0.1, 1e-400 → 0, 1e400 → Infinity, sent as null) is found
// in the text, named by its JSON Pointer, and refused, in the run form's JSON field and in `/mcp run … {JSON}`;
// a number whose double is the very number (1.50, 1e3, -0, 0.30000000000000004) passes and is sent as before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carriesExactly } from '../../blocks/decimals.js';
import { JSON_NUMBERS_TEXT } from '../../blocks/i18n-json-numbers.js';
import { inlineArgumentsRefusal, withNumberProblems } from '../../blocks/inline-args.js';
import { inexactNumbers } from '../../blocks/json-numbers.js';
import { RUN_JSON_BLOCK, readRunArguments } from '../../blocks/run-form.js';

const SAFE = Number.MAX_SAFE_INTEGER;
const INTEGER_RANGE = `Too large to send exactly: enter a whole number from -${SAFE} to ${SAFE}`;
const DIGITS = 'Too precise to send exactly: use at most 15 significant digits';

/** A tool the form engine cannot draw (a nested object), so its arguments are typed in one JSON field. */
const jsonTool = {
  type: 'object',
  properties: { target: { type: 'object' }, ratio: { type: 'number', exclusiveMinimum: 0 } },
};
const jsonTyped = (text: string) => ({
  [RUN_JSON_BLOCK]: { [RUN_JSON_BLOCK]: { type: 'plain_text_input', value: text } },
});

/** A JSON number's text: sign, digits, optional fraction, optional exponent, as a person may type one. */
const numberText = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,24}$/)),
    fc.option(fc.stringMatching(/^\d{1,24}$/), { nil: undefined }),
    fc.option(
      fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 420 })),
      {
        nil: undefined,
      },
    ),
  )
  .map(([sign, whole, fraction, exp]) => {
    const exponent = exp === undefined ? '' : `${exp[0]}${exp[1]}${exp[2]}`;
    return `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent}`;
  });

/** Where a number sits: keys (any text, `~` and `/` included) and array indices, outermost first. */
const place = fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.nat({ max: 3 })), {
  minLength: 1,
  maxLength: 4,
});

/** `text` at `path` in JSON text, beside strings and numbers that carry exactly; and its JSON Pointer. */
function embedded(text: string, path: readonly (string | number)[]): { json: string; pointer: string } {
  let json = text;
  for (const step of [...path].reverse()) {
    json =
      typeof step === 'number'
        ? `[${[...Array<string>(step).fill('"9007199254740993"'), json, '1.50'].join(', ')}]`
        : // A sibling key that differs from `step`, so the number is the one JSON.parse keeps.
          `{"${step === 'x' ? 'y' : 'x'}": "1e400 \\" 0.1000000000000000001", ${JSON.stringify(step)}: ${json}}`;
  }
  const pointer = path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  // Arguments are an object: an array outermost sits under "a".
  return typeof path[0] === 'number'
    ? { json: `{"a": ${json}}`, pointer: `/a${pointer}` }
    : { json, pointer };
}

describe('inexactNumbers', () => {
  it('names each number a double would round by its JSON Pointer, with why', () => {
    const json =
      '{"id": 9007199254740993, "a/b~": [1, {"x": 1e400}], "p": 0.1000000000000000001, "q": -1e-400, "n": null}';
    expect(inexactNumbers(json)).toEqual([
      { path: '/id', text: '9007199254740993', kind: 'integerRange' },
      { path: '/a~1b~0/1/x', text: '1e400', kind: 'tooLarge' },
      { path: '/p', text: '0.1000000000000000001', kind: 'digits' },
      { path: '/q', text: '-1e-400', kind: 'tooSmall' },
    ]);
  });

  it('passes numbers whose double is the very number, however written, and reads no number inside a string', () => {
    const json =
      '{"a": 1.50, "b": 1e3, "c": -0, "d": 0.30000000000000004, "e": 9007199254740992, "f": 5e-324, ' +
      '"g": 18014398509481984, "h": "9007199254740993", "i\\"": ["1e400\\\\", true, false, null]}';
    expect(inexactNumbers(json)).toEqual([]);
  });

  it('refuses exactly the numbers carriesExactly refuses, wherever they sit (property)', () => {
    fc.assert(
      fc.property(numberText, place, (text, path) => {
        const { json, pointer } = embedded(text, path);
        JSON.parse(json);
        const exact = carriesExactly(text, Number(text));
        expect(inexactNumbers(json).map((n) => [n.path, n.text])).toEqual(exact ? [] : [[pointer, text]]);
      }),
      {
        numRuns: 500,
        examples: [
          ['9007199254740993', ['id']],
          ['1e-400', [2, 'a/b~c']],
          ['-0', ['']],
        ],
      },
    );
  });

  it('refuses every integer past 2^53 with 17 or more significant digits, but the double’s own text (property)', () => {
    const past = fc.bigInt({ min: 2n ** 53n + 1n, max: 10n ** 30n });
    fc.assert(
      fc.property(past, fc.boolean(), (n, negative) => {
        const text = `${negative ? '-' : ''}${n}`;
        const significant = String(n).replace(/0+$/, '').length;
        fc.pre(significant >= 17);
        const found = inexactNumbers(`{"id": ${text}}`);
        // A double keeps at most 17 significant digits: one of 17 passes only when it is the text that double is
        // sent as (18014398509481984 is 2^54, sent as typed); one of 18 or more never does.
        const sentAsTyped = significant === 17 && String(Number(text)) === text;
        expect(found).toEqual(sentAsTyped ? [] : [{ path: '/id', text, kind: 'integerRange' }]);
      }),
      {
        numRuns: 300,
        examples: [
          [9007199254740993n, false],
          [12345678901234567890n, true],
        ],
      },
    );
  });
});

describe('the run form’s JSON field', () => {
  it('refuses numbers a double would round, naming each under the field, in English and Chinese', () => {
    const text = '{"target": {"ids": [9007199254740993]}, "ratio": 1e-400}';
    expect(readRunArguments(jsonTool, jsonTyped(text))).toEqual({
      ok: false,
      errors: {
        [RUN_JSON_BLOCK]:
          `These numbers cannot be sent exactly as typed: /target/ids/0: ${INTEGER_RANGE}; ` +
          '/ratio: Too close to 0 to send exactly: use 0, or a number at least 2.2250738585072014e-308 in size',
      },
    });
    const zh = readRunArguments(jsonTool, jsonTyped('{"target": {"amount": 1e400}}'), 'zh-CN');
    expect(zh).toEqual({
      ok: false,
      errors: {
        [RUN_JSON_BLOCK]:
          '以下数字无法按输入的值精确发送：/target/amount: 数值过大，无法发送：请使用 -1.7976931348623157e308 到 1.7976931348623157e308 之间的数字',
      },
    });
  });

  it('sends numbers whose double is the very number as before', () => {
    const text =
      '{"target": {"a": 1.50, "b": 1e3, "c": 0.30000000000000004, "d": 9007199254740992}, "ratio": 2}';
    expect(readRunArguments(jsonTool, jsonTyped(text))).toEqual({
      ok: true,
      args: JSON.parse(text) as object,
    });
  });
});

describe('the inline refusal', () => {
  it('puts a number’s problem ahead of the schema’s, one per argument, and says only numbers were refused', () => {
    const numbers = inexactNumbers('{"count": 9007199254740993, "p": 0.1000000000000000001}');
    const schema = [
      { path: '/count', message: 'Must be at most 10' },
      { path: '/name', message: 'This field is required' },
    ];
    expect(withNumberProblems(numbers, schema)).toEqual([
      { path: '/count', message: INTEGER_RANGE },
      { path: '/p', message: DIGITS },
      { path: '/name', message: 'This field is required' },
    ]);
    const refusal = inlineArgumentsRefusal({
      tool: '`t`',
      server: '`s`',
      problems: withNumberProblems(numbers, [], 'zh-CN'),
      formCommand: '`/mcp run s t`',
      numbersOnly: true,
      locale: 'zh-CN',
    });
    expect(refusal.split('\n').slice(0, 3)).toEqual([
      '未运行 `s` 上的 `t`：参数中有数字无法按输入的值精确发送。没有向 `s` 发送任何内容。',
      `• \`/count\`：数值过大，无法精确发送：请输入 -${SAFE} 到 ${SAFE} 之间的整数`,
      '• `/p`：精度过高，无法精确发送：请最多使用 15 位有效数字',
    ]);
  });

  it('has the same keys in English and Chinese', () => {
    expect(Object.keys(JSON_NUMBERS_TEXT['zh-CN']).sort()).toEqual(Object.keys(JSON_NUMBERS_TEXT.en).sort());
  });
});
