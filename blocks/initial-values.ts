// Values written into an input element the way Slack takes them: a number_input's initial value and bounds as a
// plain decimal string, a datetimepicker's initial moment as Unix seconds.

/** JavaScript writes these with an exponent ("1e-7", "1e+21"), which Slack's number_input refuses. */
const EXPONENT_FORM = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * `n` (finite) as a plain decimal string ("0.0000001", "1000000000000000000000"): the digits of String(n), the
 * shortest that read back as `n`, with the decimal point moved instead of an exponent, so Number() of the text
 * is `n` exactly and an answer drawn again reads back unchanged. Doubles span 5e-324 to 1.8e308, so the text
 * is at most 327 characters, far inside an input's 3000 (TEXT_INPUT_MAX, which the stand-in holds it to).
 */
export function plainDecimal(n: number): string {
  const text = String(n);
  const match = EXPONENT_FORM.exec(text);
  if (match === null) return text;
  const [, sign = '', lead = '', rest = '', exponent = '0'] = match;
  const digits = lead + rest;
  // Where the decimal point falls within `digits` once the exponent is applied.
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * RFC 3339 date-time as ajv-formats' `date-time` accepts it (any case of T and Z, a space for T, the offset
 * required, `+hh`, `+hhmm` or `+hh:mm`). Read here, not by Date.parse, whose reading of anything beyond ECMAScript's
 * own format is the engine's guess (and, without an offset, the process's time zone).
 */
const DATE_TIME =
  /^(\d{4})-(\d\d)-(\d\d)[Tt\s](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:[Zz]|([+-])(\d\d)(?::?(\d\d))?)$/;

/** Whole Unix seconds of a date-time valid by ajv-formats (see DATE_TIME); undefined for any other text. */
export function dateTimeSeconds(text: string): number | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map(Number);
  const [sign, offsetHours = '0', offsetMinutes = '0'] = match.slice(7);
  const moment = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999. A leap second (:60) rolls over.
  moment.setUTCFullYear(year, month - 1, day);
  moment.setUTCHours(hour, minute, second);
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60);
  return Math.floor(moment.getTime() / 1000) - offset;
}
