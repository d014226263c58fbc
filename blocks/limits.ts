// A Block Kit limit checker written from Slack's documentation (see shared notes §1), used by the tests
// over every emitted view and message. Returns human-readable violations; [] means within limits.
import { isRecord, type Raw } from './guards.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const INLINE_MAX: Record<string, number> = { radio_buttons: 10, checkboxes: 10 };
const ID_MAX = 255;

type Report = (path: string, problem: string) => void;

export function checkView(view: unknown): string[] {
  const problems: string[] = [];
  const report: Report = (path, problem) => problems.push(`${path}: ${problem}`);
  if (!isRecord(view)) return ['view: not an object'];
  // A Home tab has no title or buttons; a modal needs all three here (every modal the bot opens has them).
  if (view.type !== 'home') {
    for (const key of ['title', 'submit', 'close']) text(view[key], `view.${key}`, 24, report);
  }
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > 3000) {
    report('view.private_metadata', 'longer than 3000');
  }
  if (typeof view.callback_id === 'string' && view.callback_id.length > ID_MAX)
    report('view.callback_id', 'too long');
  blocks(view.blocks, 100, report);
  return problems;
}

export function checkMessage(message: unknown): string[] {
  const problems: string[] = [];
  const report: Report = (path, problem) => problems.push(`${path}: ${problem}`);
  if (!isRecord(message) || typeof message.text !== 'string') return ['message: needs text'];
  if (message.text.length > 40_000 || LONE_SURROGATE.test(message.text)) report('message.text', 'invalid');
  blocks(message.blocks, 50, report);
  return problems;
}

function blocks(list: unknown, max: number, report: Report): void {
  if (!Array.isArray(list)) return report('blocks', 'not an array');
  if (list.length > max) report('blocks', `${list.length} blocks, at most ${max}`);
  const ids = new Set<string>();
  list.forEach((block: unknown, i) => {
    const path = `blocks[${i}]`;
    if (!isRecord(block)) return report(path, 'not an object');
    if (typeof block.block_id === 'string') {
      if (block.block_id.length > ID_MAX || ids.has(block.block_id))
        report(path, 'block_id too long or repeated');
      ids.add(block.block_id);
    }
    checkBlock(block, path, report);
  });
}

function checkBlock(block: Raw, path: string, report: Report): void {
  const elements = Array.isArray(block.elements) ? (block.elements as unknown[]) : [];
  switch (block.type) {
    case 'section':
      return text(block.text, `${path}.text`, 3000, report);
    case 'header':
      return text(block.text, `${path}.text`, 150, report);
    case 'divider':
      return;
    case 'context':
      if (elements.length < 1 || elements.length > 10) report(path, 'context needs 1–10 elements');
      return elements.forEach((e, i) => text(e, `${path}.elements[${i}]`, 3000, report));
    case 'actions':
      if (elements.length < 1 || elements.length > 25) report(path, 'actions needs 1–25 elements');
      return elements.forEach((e, i) => button(e, `${path}.elements[${i}]`, report));
    case 'input':
      text(block.label, `${path}.label`, 2000, report);
      if (block.hint !== undefined) text(block.hint, `${path}.hint`, 2000, report);
      return element(block.element, `${path}.element`, report);
    default:
      return report(path, `unexpected block type ${String(block.type)}`);
  }
}

function text(value: unknown, path: string, max: number, report: Report): void {
  if (
    !isRecord(value) ||
    (value.type !== 'plain_text' && value.type !== 'mrkdwn') ||
    typeof value.text !== 'string'
  ) {
    return report(path, 'not a text object');
  }
  const t = value.text;
  if (t.length < 1 || t.length > max) report(path, `text length ${t.length}, allowed 1–${max}`);
  if (LONE_SURROGATE.test(t)) report(path, 'split surrogate pair');
}

function button(value: unknown, path: string, report: Report): void {
  if (!isRecord(value) || value.type !== 'button') return report(path, 'not a button');
  text(value.text, `${path}.text`, 75, report);
  if (typeof value.value === 'string' && value.value.length > 2000) report(path, 'value longer than 2000');
  if (typeof value.action_id !== 'string' || value.action_id.length > ID_MAX) report(path, 'bad action_id');
}

function element(value: unknown, path: string, report: Report): void {
  if (!isRecord(value) || typeof value.type !== 'string') return report(path, 'not an element');
  if (typeof value.action_id !== 'string' || value.action_id.length > ID_MAX) report(path, 'bad action_id');
  if (value.placeholder !== undefined) text(value.placeholder, `${path}.placeholder`, 150, report);
  if (value.type === 'plain_text_input') lengths(value, path, report);
  if (value.type === 'number_input') numbers(value, path, report);
  const date = value.initial_date;
  if (
    value.type === 'datepicker' &&
    date !== undefined &&
    (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date))
  ) {
    report(path, 'initial_date not YYYY-MM-DD');
  }
  if (
    value.type === 'datetimepicker' &&
    value.initial_date_time !== undefined &&
    !Number.isInteger(value.initial_date_time)
  ) {
    report(path, 'initial_date_time not integer seconds');
  }
  if ('options' in value || 'option_groups' in value) options(value, path, report);
}

function lengths(value: Raw, path: string, report: Report): void {
  const { min_length: min, max_length: max, initial_value: initial } = value;
  if (min !== undefined && (!Number.isInteger(min) || Number(min) < 0 || Number(min) > 3000))
    report(path, 'min_length');
  if (max !== undefined && (!Number.isInteger(max) || Number(max) < 1 || Number(max) > 3000))
    report(path, 'max_length');
  if (min !== undefined && max !== undefined && Number(min) > Number(max))
    report(path, 'min_length > max_length');
  if (initial !== undefined && typeof initial !== 'string') report(path, 'initial_value not a string');
}

function numbers(value: Raw, path: string, report: Report): void {
  if (typeof value.is_decimal_allowed !== 'boolean') report(path, 'is_decimal_allowed required');
  for (const key of ['min_value', 'max_value', 'initial_value']) {
    const v = value[key];
    if (v !== undefined && (typeof v !== 'string' || !/^-?\d+(\.\d+)?$/.test(v)))
      report(path, `${key} not a decimal string`);
  }
  if (
    value.min_value !== undefined &&
    value.max_value !== undefined &&
    Number(value.min_value) > Number(value.max_value)
  ) {
    report(path, 'min_value > max_value');
  }
}

function options(value: Raw, path: string, report: Report): void {
  const groups = Array.isArray(value.option_groups) ? (value.option_groups as unknown[]) : undefined;
  const flat: unknown[] = groups
    ? groups.flatMap((g): unknown[] =>
        isRecord(g) && Array.isArray(g.options) ? (g.options as unknown[]) : [],
      )
    : [];
  const list = groups ? flat : Array.isArray(value.options) ? (value.options as unknown[]) : [];
  const max = INLINE_MAX[String(value.type)] ?? 100;
  if (groups) {
    if (groups.length > 100) report(path, 'more than 100 option groups');
    groups.forEach((g, i) => {
      const size = isRecord(g) && Array.isArray(g.options) ? g.options.length : 0;
      if (size < 1 || size > 100 || !isRecord(g))
        report(`${path}.option_groups[${i}]`, 'needs 1–100 options');
      else text(g.label, `${path}.option_groups[${i}].label`, 75, report);
    });
  } else if (list.length < 1 || list.length > max) report(path, `${list.length} options, allowed 1–${max}`);
  const seen = new Set<string>();
  list.forEach((o, i) => {
    if (!isRecord(o) || typeof o.value !== 'string' || o.value.length > 150 || seen.has(o.value)) {
      return report(`${path}.options[${i}]`, 'bad or repeated value');
    }
    seen.add(o.value);
    text(o.text, `${path}.options[${i}].text`, 75, report);
  });
  const json = new Set(list.map((o) => JSON.stringify(o)));
  const many: unknown[] = Array.isArray(value.initial_options) ? (value.initial_options as unknown[]) : [];
  const initial = [value.initial_option, ...many];
  for (const chosen of initial) {
    if (chosen !== undefined && !json.has(JSON.stringify(chosen)))
      report(path, 'initial option not among options');
  }
}
