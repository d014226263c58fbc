// UI text of typed JSON arguments (`/mcp run … {JSON}`, the run form's JSON field) refused for a number a JSON
// number cannot carry as typed (json-numbers.ts), in English and Chinese (same keys per language). The form's
// number-field wording (i18n-validation.ts: `integerRange`, `numberDigits`) is reused where it fits; these are
// the cases a form field never meets (a number past the largest double, or too near 0) and the framing lines.
import { uiText, type Locale } from './i18n.js';
import type { InexactKind, InexactNumber } from './json-numbers.js';

/** ±(2 − 2^-52) × 2^1023, the largest double (Number.MAX_VALUE), as JSON.stringify writes it. */
const LARGEST = '1.7976931348623157e308';
/** 2^-1022, the smallest double that keeps all ~16 digits. */
const SMALLEST_NORMAL = '2.2250738585072014e-308';

export interface JsonNumbersText {
  /** Inline run refused for numbers alone: the tool (code), its server (code); nothing was sent. */
  refused: (tool: string, server: string) => string;
  /** The run form's JSON field: its numbers' problems, each `pointer: problem`, already joined. */
  field: (problems: string) => string;
  /** A number past the largest double (JSON.parse reads Infinity, sent as null). */
  tooLarge: string;
  /** A nonzero number nearer 0 than the smallest normal double (read as 0, or with a few digits left). */
  tooSmall: string;
}

const en: JsonNumbersText = {
  refused: (tool, server) =>
    `${tool} on ${server} was not run: its arguments hold numbers that cannot be sent exactly as typed. Nothing was sent to ${server}.`,
  field: (problems) => `These numbers cannot be sent exactly as typed: ${problems}`,
  tooLarge: `Too large to send: use a number from -${LARGEST} to ${LARGEST}`,
  tooSmall: `Too close to 0 to send exactly: use 0, or a number at least ${SMALLEST_NORMAL} in size`,
};

const zh: JsonNumbersText = {
  refused: (tool, server) =>
    `未运行 ${server} 上的 ${tool}：参数中有数字无法按输入的值精确发送。没有向 ${server} 发送任何内容。`,
  field: (problems) => `以下数字无法按输入的值精确发送：${problems}`,
  tooLarge: `数值过大，无法发送：请使用 -${LARGEST} 到 ${LARGEST} 之间的数字`,
  tooSmall: `数值过于接近 0，无法精确发送：请使用 0，或绝对值不小于 ${SMALLEST_NORMAL} 的数字`,
};

/** The table for `locale`; English when absent. */
export function jsonNumbersText(locale?: Locale): JsonNumbersText {
  return locale === 'zh-CN' ? zh : en;
}

/** Both tables, for tests that compare them. */
export const JSON_NUMBERS_TEXT: Record<Locale, JsonNumbersText> = { en, 'zh-CN': zh };

/** What a number of `kind` needs, in `locale`: the form's own words where a number field says the same. */
export function inexactNumberMessage(kind: InexactKind, locale?: Locale): string {
  const errors = uiText(locale).errors;
  const t = jsonNumbersText(locale);
  return {
    integerRange: errors.integerRange,
    digits: errors.numberDigits,
    tooLarge: t.tooLarge,
    tooSmall: t.tooSmall,
  }[kind];
}

/** Numbers the run form's JSON field lists before "…"; the field's error is one line. */
const FIELD_NUMBERS_SHOWN = 3;

/** The JSON field's error for `numbers` (at least one): each named by its JSON Pointer, with what it needs. */
export function jsonFieldNumbersError(numbers: readonly InexactNumber[], locale?: Locale): string {
  const shown = numbers
    .slice(0, FIELD_NUMBERS_SHOWN)
    .map((n) => `${n.path}: ${inexactNumberMessage(n.kind, locale)}`);
  return jsonNumbersText(locale).field(
    [...shown, ...(numbers.length > FIELD_NUMBERS_SHOWN ? ['…'] : [])].join('; '),
  );
}
