// The number_input's numbers as Slack writes them: its min_value, max_value and initial_value are strings (its
// element reference), and what a person types comes back as a string too. Slack's reference: "Decimal numbers
// are only allowed when is_decimal_allowed is equal to true" (0.25, 5.5 and -10 are its examples). Compared as
// written, digit by digit, never through a float: a bound of "0.3" refuses "0.30000000000000001".

/** A plain decimal string ("12", "-0.5"): no exponent, no spaces, no lone point, no hexadecimal. */
export const DECIMAL_STRING = /^-?\d+(\.\d+)?$/;

/** A whole number written without a decimal point ("-10", "7"): what an input without decimals takes. */
export const WHOLE_STRING = /^-?\d+$/;

/** A decimal string's sign and digits, without the zeros that do not change its value. */
interface DecimalParts {
  negative: boolean;
  whole: string;
  fraction: string;
}

function partsOf(text: string): DecimalParts {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const parts = { whole: whole.replace(/^0+/, ''), fraction: fraction.replace(/0+$/, '') };
  // "-0" and "0" are the same number.
  return { negative: negative && (parts.whole !== '' || parts.fraction !== ''), ...parts };
}

/** Compares two DECIMAL_STRING texts by value: negative when `a` is less, 0 when equal, positive when more. */
export function compareDecimals(a: string, b: string): number {
  const [x, y] = [partsOf(a), partsOf(b)];
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  const sign = x.negative ? -1 : 1;
  return sign * compareMagnitudes(x, y);
}

function compareMagnitudes(x: DecimalParts, y: DecimalParts): number {
  if (x.whole.length !== y.whole.length) return x.whole.length - y.whole.length;
  if (x.whole !== y.whole) return x.whole < y.whole ? -1 : 1;
  const width = Math.max(x.fraction.length, y.fraction.length);
  const [fx, fy] = [x.fraction.padEnd(width, '0'), y.fraction.padEnd(width, '0')];
  return fx === fy ? 0 : fx < fy ? -1 : 1;
}
