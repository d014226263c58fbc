// UI text of the form's validation errors, in English and Chinese; see i18n.ts.
import type { Count, Locale } from './i18n.js';

/** 9007199254740991, the largest integer a JSON number (a double) carries exactly. */
const SAFE = Number.MAX_SAFE_INTEGER;

/** Errors shown on a form field whose value the schema refuses. */
export interface ValidationText {
  required: string;
  minLength: Count;
  maxLength: Count;
  minimum: Count;
  maximum: Count;
  exclusiveMinimum: Count;
  exclusiveMaximum: Count;
  multipleOf: Count;
  /** A number, yes/no or text field that takes only some values (an `enum` or `const`): them, joined. */
  oneOf: (values: string) => string;
  minItems: Count;
  maxItems: Count;
  email: string;
  uri: string;
  date: string;
  dateTime: string;
  pattern: string;
  enum: string;
  integer: string;
  /** A whole number past ±Number.MAX_SAFE_INTEGER: as a JSON number it would reach the server rounded. */
  integerRange: string;
  number: string;
  /** A number a double cannot carry as typed (it would reach the server as another): 15 digits always fit. */
  numberDigits: string;
  yesNo: string;
  listed: string;
  invalid: string;
}

export const VALIDATION_TEXT: Record<Locale, ValidationText> = {
  en: {
    required: 'This field is required',
    minLength: (n) => `Must be at least ${n} ${n === 1 ? 'character' : 'characters'}`,
    maxLength: (n) => `Must be at most ${n} ${n === 1 ? 'character' : 'characters'}`,
    minimum: (n) => `Must be at least ${n}`,
    maximum: (n) => `Must be at most ${n}`,
    exclusiveMinimum: (n) => `Must be more than ${n}`,
    exclusiveMaximum: (n) => `Must be less than ${n}`,
    multipleOf: (n) => `Must be a multiple of ${n}`,
    oneOf: (values) => `Must be one of: ${values}`,
    minItems: (n) => `Choose at least ${n}`,
    maxItems: (n) => `Choose at most ${n}`,
    email: 'Enter a valid email address',
    uri: 'Enter a valid URL, like https://example.com',
    date: 'Enter a valid date',
    dateTime: 'Enter a valid date and time',
    pattern: 'Does not match the expected format',
    enum: 'Choose one of the options',
    integer: 'Enter a whole number',
    integerRange: `Too large to send exactly: enter a whole number from -${SAFE} to ${SAFE}`,
    number: 'Enter a number',
    numberDigits: 'Too precise to send exactly: use at most 15 significant digits',
    yesNo: 'Choose Yes or No',
    listed: 'Choose from the listed options',
    invalid: 'Enter a valid value',
  },
  'zh-CN': {
    required: '此项为必填项',
    minLength: (n) => `必须至少为 ${n} 个字符`,
    maxLength: (n) => `最多 ${n} 个字符`,
    minimum: (n) => `必须至少为 ${n}`,
    maximum: (n) => `必须最多为 ${n}`,
    exclusiveMinimum: (n) => `必须大于 ${n}`,
    exclusiveMaximum: (n) => `必须小于 ${n}`,
    multipleOf: (n) => `必须是 ${n} 的倍数`,
    oneOf: (values) => `必须是以下之一：${values}`,
    minItems: (n) => `请至少选择 ${n} 项`,
    maxItems: (n) => `最多选择 ${n} 项`,
    email: '请输入有效的电子邮件地址',
    uri: '请输入有效的网址，例如 https://example.com',
    date: '请输入有效的日期',
    dateTime: '请输入有效的日期和时间',
    pattern: '格式不符合要求',
    enum: '请选择其中一个选项',
    integer: '请输入整数',
    integerRange: `数值过大，无法精确发送：请输入 -${SAFE} 到 ${SAFE} 之间的整数`,
    number: '请输入数字',
    numberDigits: '精度过高，无法精确发送：请最多使用 15 位有效数字',
    yesNo: '请选择“是”或“否”',
    listed: '请从列出的选项中选择',
    invalid: '请输入有效的值',
  },
};
