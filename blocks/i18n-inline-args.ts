// UI text of `/mcp run <server> <tool> {JSON}` refused because its arguments break the tool's inputSchema, in
// English and Chinese (same keys per language). The form's own wording (i18n-validation.ts) is reused where it fits
// typed JSON as well; these are the messages it has no word for, or words only a form field fits ("Choose…").
// Strings that embed server or typed text take it already formatted for mrkdwn.
import type { Locale } from './i18n.js';

type Count = (n: number) => string;

/** JSON Schema's instance types (draft-07's `type` values). */
export type JsonTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface InlineArgsText {
  /** First line: the tool (code), its server (code); nothing was sent. */
  refused: (tool: string, server: string) => string;
  /** How a problem at `path` (code) reads: the path, then what it expects. */
  line: (path: string, problem: string) => string;
  /** The path of the arguments object itself (an error about the whole of it: `minProperties`, `anyOf`). */
  whole: string;
  /** Problems past the ones listed. */
  more: Count;
  /** How to fix: the command without arguments (code) opens the form. */
  fix: (formCommand: string) => string;
  minItems: Count;
  maxItems: Count;
  uniqueItems: string;
  /** A JSON type, as "Must be …" names it. */
  typeName: (type: JsonTypeName) => string;
  /** The types it takes, already joined. */
  mustBe: (types: string[]) => string;
  /** A `format` the form has no word for (its name, code). */
  format: (name: string) => string;
  /** A property the schema does not allow (`additionalProperties`). */
  notAllowed: string;
  /** Needed because another property (code) is given (`dependencies`). */
  requiredWith: (property: string) => string;
  /** `anyOf` or `oneOf` matched by none of its forms. */
  matchesNone: string;
  /** `oneOf` matched by more than one of its forms. */
  matchesSeveral: string;
  /** Any other keyword the value breaks (its name, code). */
  breaks: (keyword: string) => string;
}

const en: InlineArgsText = {
  refused: (tool, server) =>
    `${tool} on ${server} was not run: its arguments do not match the tool’s input schema. Nothing was sent to ${server}.`,
  line: (path, problem) => `• ${path}: ${problem}`,
  whole: 'the arguments',
  more: (n) => `…and ${n} more ${n === 1 ? 'problem' : 'problems'}.`,
  fix: (formCommand) =>
    `Fix the arguments and run the command again, or run ${formCommand} without arguments to fill them in a form that checks each one.`,
  minItems: (n) => `Must have at least ${n} ${n === 1 ? 'item' : 'items'}`,
  maxItems: (n) => `Must have at most ${n} ${n === 1 ? 'item' : 'items'}`,
  uniqueItems: 'Must not repeat an item',
  typeName: (type) =>
    ({
      string: 'a string',
      number: 'a number',
      integer: 'a whole number',
      boolean: 'true or false',
      object: 'an object',
      array: 'an array',
      null: 'null',
    })[type],
  mustBe: (types) => `Must be ${types.join(' or ')}`,
  format: (name) => `Must be a valid ${name}`,
  notAllowed: 'Not allowed here: the tool’s schema does not take it',
  requiredWith: (property) => `Required when ${property} is given`,
  matchesNone: 'Does not match any of the forms the tool’s schema allows',
  matchesSeveral: 'Matches more than one of the forms the tool’s schema allows; it must match exactly one',
  breaks: (keyword) => `Does not meet the schema’s ${keyword}`,
};

const zh: InlineArgsText = {
  refused: (tool, server) =>
    `未运行 ${server} 上的 ${tool}：参数不符合该工具的输入模式。没有向 ${server} 发送任何内容。`,
  line: (path, problem) => `• ${path}：${problem}`,
  whole: '参数整体',
  more: (n) => `……还有 ${n} 处问题。`,
  fix: (formCommand) => `请修正参数后重新运行该命令，或不带参数运行 ${formCommand}，在逐项检查的表单中填写。`,
  minItems: (n) => `至少需要 ${n} 项`,
  maxItems: (n) => `最多 ${n} 项`,
  uniqueItems: '不能有重复的项',
  typeName: (type) =>
    ({
      string: '字符串',
      number: '数字',
      integer: '整数',
      boolean: '布尔值（true 或 false）',
      object: '对象',
      array: '数组',
      null: '空值（null）',
    })[type],
  mustBe: (types) => `必须是${types.join('或')}`,
  format: (name) => `必须是有效的 ${name}`,
  notAllowed: '此处不允许：该工具的模式不接受它',
  requiredWith: (property) => `提供了 ${property} 时此项为必填项`,
  matchesNone: '不符合该工具模式所允许的任何一种形式',
  matchesSeveral: '符合该工具模式所允许的多种形式；只能恰好符合一种',
  breaks: (keyword) => `不满足模式的 ${keyword} 要求`,
};

/** The table for `locale`; English when absent. */
export function inlineArgsText(locale?: Locale): InlineArgsText {
  return locale === 'zh-CN' ? zh : en;
}

/** Both tables, for tests that compare them. */
export const INLINE_ARGS_TEXT: Record<Locale, InlineArgsText> = { en, 'zh-CN': zh };
