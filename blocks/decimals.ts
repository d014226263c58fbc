// Numbers as the decimals they are written in. JSON numbers are decimal text: a schema's `"multipleOf": 0.01`,
// a person's "19.99", and JSON.stringify writes a double back as the shortest decimal that reads as it (what the
// server receives). ajv divides in binary floating point (19.99 / 0.01 is 1998.9999999999998) and refuses what
// JSON Schema calls valid, "the division gives an integer"; here that division is done exactly on those decimals.
import { _, str, type Ajv, type KeywordDefinition } from 'ajv';

/** ±digits × 10^exponent; `digits` without leading or trailing zeros, '' for zero (of either sign). */
interface Decimal {
  negative: boolean;
  digits: string;
  exponent: number;
}

/** Decimal text as Number() and JSON read it: a sign, digits with one optional point, an optional exponent. */
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

function decimalOf(text: string): Decimal | undefined {
  const match = DECIMAL_TEXT.exec(text);
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const all = (whole + fraction).replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  if (digits === '') return { negative: false, digits: '', exponent: 0 };
  // An exponent past ±2^53 reads inexactly here; such a number is no finite double, or is 0, anyway.
  const shift = Number(exponent) - fraction.length + (all.length - digits.length);
  return { negative: sign === '-', digits, exponent: shift };
}

/** `n` (finite) as the decimal JSON.stringify writes it. */
const decimalOfNumber = (n: number): Decimal | undefined => decimalOf(String(n));

/**
 * Whether `text` (decimal, as typed) is the very number its double `n` reaches the server as: false when the
 * double rounded it (more digits than a double keeps, as 9007199254740993 or 0.1000000000000000001; or too small,
 * as 1e-400, which is 0). Another spelling of the same number (1.50, 1e3, -0) is the same.
 */
export function carriesExactly(text: string, n: number): boolean {
  const typed = decimalOf(text);
  const sent = Number.isFinite(n) ? decimalOfNumber(n) : undefined;
  if (typed === undefined || sent === undefined) return false;
  return typed.digits === sent.digits && typed.exponent === sent.exponent && typed.negative === sent.negative;
}

/**
 * Whether `value` divided by `step` gives an integer, both read as the decimals JSON writes them: 19.99 is a
 * multiple of 0.01, 19.995 is not. Exact (integer arithmetic), so no tolerance lets a near miss through. Doubles
 * span 10^-324 to 10^308, so the integers compared have at most ~650 digits.
 */
export function isDecimalMultiple(value: number, step: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(step) || step <= 0) return false;
  const v = decimalOfNumber(value);
  const s = decimalOfNumber(step);
  if (v === undefined || s === undefined) return false;
  if (v.digits === '') return true;
  // Both over the smaller power of ten: integers, whose remainder says it.
  const base = Math.min(v.exponent, s.exponent);
  const scaled = (d: Decimal) => BigInt(d.digits) * 10n ** BigInt(d.exponent - base);
  return scaled(v) % scaled(s) === 0n;
}

/**
 * `multipleOf` checked by isDecimalMultiple, with ajv's own error (keyword, `params.multipleOf`, message), so
 * the errors read as before; only which numbers pass changes.
 */
const DECIMAL_MULTIPLE_OF: KeywordDefinition = {
  keyword: 'multipleOf',
  type: 'number',
  schemaType: 'number',
  errors: false,
  validate: (step: number, value: number) => isDecimalMultiple(value, step),
  error: {
    message: ({ schemaCode }) => str`must be multiple of ${schemaCode}`,
    params: ({ schemaCode }) => _`{multipleOf: ${schemaCode}}`,
  },
};

/** `ajv` with its `multipleOf` checked on decimals (isDecimalMultiple); returns it. */
export function withDecimalMultipleOf(ajv: Ajv): Ajv {
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword(DECIMAL_MULTIPLE_OF);
  return ajv;
}
