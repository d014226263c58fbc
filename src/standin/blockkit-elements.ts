// Block element and option checks of the stand-in's Block Kit validator (limits from Slack's element pages).
import { isDeepStrictEqual } from 'node:util';
import {
  BUTTON_TEXT_MAX,
  BUTTON_URL_MAX,
  BUTTON_VALUE_MAX,
  CHOICE_OPTIONS_MAX,
  CONFIRM_BUTTON_MAX,
  CONFIRM_TEXT_MAX,
  CONFIRM_TITLE_MAX,
  CONTEXT_TEXT_MAX,
  ID_MAX,
  IMAGE_ALT_TEXT_MAX,
  IMAGE_URL_MAX,
  OPTION_GROUP_LABEL_MAX,
  OPTION_TEXT_MAX,
  OPTION_VALUE_MAX,
  OVERFLOW_OPTIONS_MAX,
  PLACEHOLDER_MAX,
  SELECT_OPTIONS_MAX,
  TEXT_INPUT_MAX,
} from '../../blocks/slack-limits.js';
import { type Checker, type Obj, isObj } from './blockkit-check.js';
import { DECIMAL_STRING, WHOLE_STRING, compareDecimals } from './decimal-strings.js';

type ElementCheck = (c: Checker, el: Obj, ptr: string) => void;

const SELECTS = [
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
];
const MULTI_SELECTS = SELECTS.map((s) => `multi_${s}`);
const PICKERS = ['datepicker', 'timepicker', 'datetimepicker'];
const CHOICES = ['checkboxes', 'radio_buttons'];
const TEXT_INPUTS = ['plain_text_input', 'email_text_input', 'url_text_input', 'number_input'];

/** Elements each place accepts; anything else is `unsupported type`. */
export const INPUT_ELEMENTS = new Set([
  ...TEXT_INPUTS,
  ...PICKERS,
  ...CHOICES,
  ...SELECTS,
  ...MULTI_SELECTS,
  'rich_text_input',
  'file_input',
]);
export const ACTIONS_ELEMENTS = new Set([
  'button',
  'overflow',
  ...PICKERS,
  ...CHOICES,
  ...SELECTS,
  ...MULTI_SELECTS,
]);
export const ACCESSORY_ELEMENTS = new Set([
  'button',
  'overflow',
  'image',
  'datepicker',
  'timepicker',
  ...CHOICES,
]);
for (const s of [...SELECTS, ...MULTI_SELECTS]) ACCESSORY_ELEMENTS.add(s);

function confirm(c: Checker, el: Obj, ptr: string): void {
  if (el.confirm === undefined) return;
  const dialog = c.obj(el.confirm, `${ptr}/confirm`);
  if (!dialog) return;
  const p = `${ptr}/confirm`;
  c.text(dialog, 'title', p, { max: CONFIRM_TITLE_MAX, plain: true, required: true });
  c.text(dialog, 'text', p, { max: CONFIRM_TEXT_MAX, required: true });
  c.text(dialog, 'confirm', p, { max: CONFIRM_BUTTON_MAX, plain: true, required: true });
  c.text(dialog, 'deny', p, { max: CONFIRM_BUTTON_MAX, plain: true, required: true });
}

function option(c: Checker, value: unknown, ptr: string, plain: boolean): void {
  const opt = c.obj(value, ptr);
  if (!opt) return;
  c.text(opt, 'text', ptr, { max: OPTION_TEXT_MAX, plain, required: true });
  c.str(opt, 'value', ptr, OPTION_VALUE_MAX, true);
  c.text(opt, 'description', ptr, { max: OPTION_TEXT_MAX, plain });
  c.str(opt, 'url', ptr, BUTTON_URL_MAX);
}

/** Checks `options` / `option_groups` and returns every option, for matching initial_option(s). */
function options(
  c: Checker,
  el: Obj,
  ptr: string,
  rule: { max: number; plain: boolean; groups: boolean },
): unknown[] {
  if (rule.groups && el.option_groups !== undefined) {
    if (el.options !== undefined) c.fail(ptr, 'must provide exactly one of options or option_groups');
    const groups = c.list(el, 'option_groups', ptr, { max: SELECT_OPTIONS_MAX, min: 1 });
    return groups.flatMap((g, i) => {
      const gp = `${ptr}/option_groups/${i}`;
      const group = c.obj(g, gp);
      if (!group) return [];
      c.text(group, 'label', gp, { max: OPTION_GROUP_LABEL_MAX, plain: true, required: true });
      const opts = c.list(group, 'options', gp, { max: SELECT_OPTIONS_MAX, min: 1, required: true });
      opts.forEach((o, j) => option(c, o, `${gp}/options/${j}`, true));
      return opts;
    });
  }
  const opts = c.list(el, 'options', ptr, { max: rule.max, min: 1, required: true });
  opts.forEach((o, i) => option(c, o, `${ptr}/options/${i}`, rule.plain));
  return opts;
}

/** Options of one element must have distinct values (Slack reports which one repeats). */
function uniqueValues(c: Checker, all: unknown[], ptr: string): void {
  const seen = new Set<unknown>();
  all.forEach((o, i) => {
    const value = isObj(o) ? o.value : undefined;
    if (typeof value !== 'string') return;
    if (seen.has(value)) c.fail(`${ptr}/options/${i}/value`, `duplicate option value: ${value}`);
    seen.add(value);
  });
}

function initialChoices(c: Checker, el: Obj, ptr: string, all: unknown[]): void {
  const matches = (o: unknown): boolean => all.some((a) => isDeepStrictEqual(a, o));
  if (el.initial_option !== undefined && !matches(el.initial_option)) {
    c.fail(`${ptr}/initial_option`, 'must match one of the provided options');
  }
  if (el.initial_options === undefined) return;
  if (!Array.isArray(el.initial_options)) return c.fail(`${ptr}/initial_options`, 'must be an array');
  (el.initial_options as unknown[]).forEach((o, i) => {
    if (!matches(o)) c.fail(`${ptr}/initial_options/${i}`, 'must match one of the provided options');
  });
}

const choice =
  (plain: boolean, max: number, groups: boolean): ElementCheck =>
  (c, el, ptr) => {
    const all = options(c, el, ptr, { max, plain, groups });
    uniqueValues(c, all, ptr);
    initialChoices(c, el, ptr, all);
  };

const staticSelect: ElementCheck = (c, el, ptr) => {
  choice(true, SELECT_OPTIONS_MAX, true)(c, el, ptr);
  maxSelected(c, el, ptr);
};

function maxSelected(c: Checker, el: Obj, ptr: string): void {
  const max = el.max_selected_items;
  if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 1)) {
    c.fail(`${ptr}/max_selected_items`, 'must be an integer of at least 1');
  }
}

function lengthBound(c: Checker, el: Obj, ptr: string, key: string, min: number): void {
  const v = el[key];
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > TEXT_INPUT_MAX) {
    c.fail(`${ptr}/${key}`, `must be an integer between ${min} and ${TEXT_INPUT_MAX}`);
  }
}

function pattern(c: Checker, el: Obj, ptr: string, key: string, re: RegExp, what: string): void {
  const v = el[key];
  if (v !== undefined && (typeof v !== 'string' || !re.test(v))) c.fail(`${ptr}/${key}`, `must be ${what}`);
}

/**
 * number_input bounds and initial value are decimal strings ("12", "-0.5"; no exponent, no spaces), whole ones
 * unless is_decimal_allowed is true, and min_value is not above max_value (compared as written).
 */
const numberInput: ElementCheck = (c, el, ptr) => {
  c.bool(el, 'is_decimal_allowed', ptr, true);
  const numbers: Partial<Record<string, string>> = {};
  for (const key of ['initial_value', 'min_value', 'max_value']) {
    const value = c.str(el, key, ptr, TEXT_INPUT_MAX);
    if (value === undefined) continue;
    if (!DECIMAL_STRING.test(value)) c.fail(`${ptr}/${key}`, 'must be a decimal number');
    else if (el.is_decimal_allowed !== true && !WHOLE_STRING.test(value))
      c.fail(`${ptr}/${key}`, 'must be a whole number when is_decimal_allowed is false');
    else numbers[key] = value;
  }
  const { min_value: min, max_value: max } = numbers;
  if (min !== undefined && max !== undefined && compareDecimals(min, max) > 0) {
    c.fail(`${ptr}/min_value`, 'must be less than or equal to max_value');
  }
};

const CHECKS: Record<string, ElementCheck> = {
  button: (c, el, ptr) => {
    c.text(el, 'text', ptr, { max: BUTTON_TEXT_MAX, plain: true, required: true });
    c.str(el, 'value', ptr, BUTTON_VALUE_MAX);
    c.str(el, 'url', ptr, BUTTON_URL_MAX);
    c.str(el, 'accessibility_label', ptr, BUTTON_TEXT_MAX);
    if (el.style !== undefined && el.style !== 'primary' && el.style !== 'danger') {
      c.fail(`${ptr}/style`, 'must be one of primary, danger');
    }
  },
  overflow: choice(true, OVERFLOW_OPTIONS_MAX, false),
  checkboxes: choice(false, CHOICE_OPTIONS_MAX, false),
  radio_buttons: choice(false, CHOICE_OPTIONS_MAX, false),
  static_select: staticSelect,
  multi_static_select: staticSelect,
  external_select: (c, el, ptr) => initialChoices(c, el, ptr, [el.initial_option]),
  multi_external_select: maxSelected,
  datepicker: (c, el, ptr) => pattern(c, el, ptr, 'initial_date', /^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD'),
  timepicker: (c, el, ptr) => pattern(c, el, ptr, 'initial_time', /^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm'),
  datetimepicker: (c, el, ptr) => {
    const v = el.initial_date_time;
    if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v))) {
      c.fail(`${ptr}/initial_date_time`, 'must be an integer of Unix seconds');
    }
  },
  plain_text_input: (c, el, ptr) => {
    c.str(el, 'initial_value', ptr, TEXT_INPUT_MAX);
    lengthBound(c, el, ptr, 'min_length', 0);
    lengthBound(c, el, ptr, 'max_length', 1);
    const [min, max] = [el.min_length, el.max_length];
    if (typeof min === 'number' && typeof max === 'number' && min > max) {
      c.fail(`${ptr}/min_length`, 'must be less than or equal to max_length');
    }
    c.bool(el, 'multiline', ptr);
  },
  email_text_input: (c, el, ptr) => void c.str(el, 'initial_value', ptr, TEXT_INPUT_MAX),
  url_text_input: (c, el, ptr) => void c.str(el, 'initial_value', ptr, TEXT_INPUT_MAX),
  number_input: numberInput,
  image: (c, el, ptr) => {
    if (el.slack_file === undefined) c.str(el, 'image_url', ptr, IMAGE_URL_MAX, true);
    c.str(el, 'alt_text', ptr, IMAGE_ALT_TEXT_MAX, true);
  },
};

/** Checks one element at `ptr`, which must be of a type in `allowed`. */
export function checkElement(c: Checker, value: unknown, ptr: string, allowed: ReadonlySet<string>): void {
  const el = c.obj(value, ptr);
  if (!el) return;
  const type = typeof el.type === 'string' ? el.type : String(el.type);
  if (!allowed.has(type)) return c.fail(`${ptr}/type`, `unsupported type: ${type}`);
  if (type !== 'image') c.str(el, 'action_id', ptr, ID_MAX);
  c.text(el, 'placeholder', ptr, { max: PLACEHOLDER_MAX, plain: true });
  c.bool(el, 'focus_on_load', ptr);
  confirm(c, el, ptr);
  CHECKS[type]?.(c, el, ptr);
}

/** Context elements are images or text objects. */
export function checkContextElement(c: Checker, value: unknown, ptr: string): void {
  if (isObj(value) && (value.type === 'plain_text' || value.type === 'mrkdwn')) {
    return c.textObject(value, ptr, { max: CONTEXT_TEXT_MAX });
  }
  checkElement(c, value, ptr, new Set(['image']));
}
