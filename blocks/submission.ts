// view.state.values → content typed as the schema says, or errors keyed by block_id for
// `response_action: "errors"`. Empty optional fields are absent from content.
import type { Content } from '../src/relay/types.js';
import { NO, YES } from './elements.js';
import { carriesExactly } from './decimals.js';
import { isRecord, type Raw } from './guards.js';
import { uiText, type Locale, type UiText } from './i18n.js';
import { optionIndex } from './ids.js';
import { dateTimeSeconds } from './initial-values.js';
import { pageFields } from './pages.js';
import type { FieldSpec, FormSpec, MultiSelectField, SelectOption, TextField } from './spec.js';
import { validationErrors } from './validate.js';

export type SubmissionResult = { ok: true; content: Content } | { ok: false; errors: Record<string, string> };

type Value = Content[string];
type Errors = UiText['errors'];
/** One field read back: a value, nothing (left empty), or why the input can't be typed. */
type Read = { value?: Value } | { error: string };

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
/** Largest epoch milliseconds a Date can hold. */
const DATE_MS_MAX = 8.64e15;

export interface ReadOptions {
  /** Read and validate only this 0-based page's fields (the content then holds only them). */
  page?: number;
  /** Language of the error messages; English when absent. */
  locale?: Locale;
}

export function readSubmission(
  spec: FormSpec,
  stateValues: unknown,
  options: ReadOptions = {},
): SubmissionResult {
  const values = isRecord(stateValues) ? stateValues : {};
  const t = uiText(options.locale).errors;
  const fields = options.page === undefined ? spec.fields : pageFields(spec, options.page);
  const entries: [string, Value][] = [];
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const block = values[field.blockId];
    const state = isRecord(block) && isRecord(block[field.actionId]) ? (block[field.actionId] as Raw) : {};
    const read = readField(field, state, t);
    if ('error' in read) errors[field.blockId] = read.error;
    else if (read.value !== undefined) entries.push([field.name, read.value]);
  }
  // fromEntries keeps a property named "__proto__" an ordinary key.
  const content: Content = Object.fromEntries(entries);
  // A field that could not be typed keeps that error rather than the "required" that follows from it.
  // Validated against the whole schema; errors of fields on other pages are left out.
  const all: Record<string, string> = { ...validationErrors(spec, content, options.locale), ...errors };
  const invalid = fields.flatMap((f): [string, string][] => {
    const message = all[f.blockId];
    return message === undefined ? [] : [[f.blockId, message]];
  });
  return invalid.length > 0 ? { ok: false, errors: Object.fromEntries(invalid) } : { ok: true, content };
}

function readField(field: FieldSpec, state: Raw, t: Errors): Read {
  switch (field.kind) {
    case 'text':
      return field.format === 'date'
        ? text(state.selected_date)
        : field.format === 'date-time'
          ? dateTime(field, state, t)
          : text(state.value);
    case 'number':
    case 'integer':
      return number(state.value, field.kind === 'integer', t);
    case 'boolean':
      return boolean(state.selected_option, t);
    case 'single-select':
      return single(field.options, state.selected_option, t);
    case 'multi-select':
      return multi(field, state.selected_options, t);
  }
}

function text(value: unknown): Read {
  return typeof value === 'string' && value !== '' ? { value } : {};
}

// datetimepicker gives Unix seconds of the moment picked in the person's time zone; content is UTC RFC 3339.
// A default left as drawn (the picker shows whole seconds) is sent as the server wrote it: its offset and
// fraction of a second kept, not rewritten to whole UTC seconds, another text and a moment up to 1 s earlier.
function dateTime(field: TextField, state: Raw, t: Errors): Read {
  const seconds = state.selected_date_time;
  if (seconds === null || seconds === undefined) return {};
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || Math.abs(seconds * 1000) > DATE_MS_MAX) {
    return { error: t.dateTime };
  }
  const whole = Math.floor(seconds);
  const kept = field.default !== undefined && dateTimeSeconds(field.default) === whole;
  return { value: kept ? field.default : new Date(whole * 1000).toISOString().replace('.000Z', 'Z') };
}

function number(value: unknown, integer: boolean, t: Errors): Read {
  if (typeof value !== 'string') return {};
  // NFKC: a Chinese or Japanese input method types full-width digits, point and minus ("－３．５"), the same number.
  const text = value.normalize('NFKC').trim();
  if (text === '') return {};
  const n = Number(text);
  if (!DECIMAL.test(text) || !Number.isFinite(n)) return { error: t.number };
  if (integer && !Number.isInteger(n)) return { error: t.integer };
  // Past 2^53 a double skips integers: "9007199254740993" would reach the server as …992, another record.
  if (integer && !Number.isSafeInteger(n)) return { error: t.integerRange };
  // A double keeps ~16 digits: "0.1000000000000000001" would reach the server as 0.1, "1e-400" as 0.
  if (!carriesExactly(text, n)) return { error: integer ? t.integer : t.numberDigits };
  return { value: n };
}

function boolean(selected: unknown, t: Errors): Read {
  const value = isRecord(selected) ? selected.value : undefined;
  if (value === undefined) return {};
  return value === YES ? { value: true } : value === NO ? { value: false } : { error: t.yesNo };
}

function single(options: SelectOption[], selected: unknown, t: Errors): Read {
  if (!isRecord(selected)) return {};
  const option = optionAt(options, selected.value);
  return option ? { value: option.value } : { error: t.enum };
}

function multi(field: MultiSelectField, selected: unknown, t: Errors): Read {
  const { options } = field;
  const list = Array.isArray(selected) ? selected : [];
  const chosen = list.map((s) => (isRecord(s) ? optionAt(options, s.value) : undefined));
  if (chosen.some((o) => o === undefined)) return { error: t.listed };
  if (chosen.length === 0) return nothingChosen(field);
  // Keep the schema's option order, whatever order Slack reports the picks in.
  return { value: options.filter((o) => chosen.includes(o)).map((o) => o.value) };
}

/**
 * A multi-select with nothing ticked: [] when required, or when it has a default, so an optional field whose
 * pre-ticked default the person unticked is not left out and filled with that default again (the MCP side
 * applies defaults to absent fields); left out otherwise, or when [] is fewer than its minItems.
 */
function nothingChosen(field: MultiSelectField): Read {
  if (field.required) return { value: [] };
  return field.default !== undefined && (field.minItems ?? 0) === 0 ? { value: [] } : {};
}

function optionAt(options: SelectOption[], value: unknown): SelectOption | undefined {
  const index = typeof value === 'string' ? optionIndex(value) : undefined;
  return index === undefined ? undefined : options[index];
}
