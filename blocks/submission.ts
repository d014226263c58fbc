// view.state.values → content typed as the schema says, or errors keyed by block_id for
// `response_action: "errors"`. Empty optional fields are absent from content.
import type { Content } from '../src/relay/types.js';
import { NO, YES } from './elements.js';
import { isRecord, type Raw } from './guards.js';
import { optionIndex } from './ids.js';
import type { FieldSpec, FormSpec, SelectOption } from './spec.js';
import { validationErrors } from './validate.js';

export type SubmissionResult = { ok: true; content: Content } | { ok: false; errors: Record<string, string> };

type Value = Content[string];
/** One field read back: a value, nothing (left empty), or why the input can't be typed. */
type Read = { value?: Value } | { error: string };

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
/** Largest epoch milliseconds a Date can hold. */
const DATE_MS_MAX = 8.64e15;

export function readSubmission(spec: FormSpec, stateValues: unknown): SubmissionResult {
  const values = isRecord(stateValues) ? stateValues : {};
  const entries: [string, Value][] = [];
  const errors: Record<string, string> = {};
  for (const field of spec.fields) {
    const block = values[field.blockId];
    const state = isRecord(block) && isRecord(block[field.actionId]) ? (block[field.actionId] as Raw) : {};
    const read = readField(field, state);
    if ('error' in read) errors[field.blockId] = read.error;
    else if (read.value !== undefined) entries.push([field.name, read.value]);
  }
  // fromEntries keeps a property named "__proto__" an ordinary key.
  const content: Content = Object.fromEntries(entries);
  // A field that could not be typed keeps that error rather than the "required" that follows from it.
  const all: Record<string, string> = { ...validationErrors(spec, content), ...errors };
  const invalid = spec.fields.flatMap((f): [string, string][] => {
    const message = all[f.blockId];
    return message === undefined ? [] : [[f.blockId, message]];
  });
  return invalid.length > 0 ? { ok: false, errors: Object.fromEntries(invalid) } : { ok: true, content };
}

function readField(field: FieldSpec, state: Raw): Read {
  switch (field.kind) {
    case 'text':
      return field.format === 'date'
        ? text(state.selected_date)
        : field.format === 'date-time'
          ? dateTime(state)
          : text(state.value);
    case 'number':
    case 'integer':
      return number(state.value, field.kind === 'integer');
    case 'boolean':
      return boolean(state.selected_option);
    case 'single-select':
      return single(field.options, state.selected_option);
    case 'multi-select':
      return multi(field.options, state.selected_options, field.required);
  }
}

function text(value: unknown): Read {
  return typeof value === 'string' && value !== '' ? { value } : {};
}

// datetimepicker gives Unix seconds of the moment picked in the person's time zone; content is UTC RFC 3339.
function dateTime(state: Raw): Read {
  const seconds = state.selected_date_time;
  if (seconds === null || seconds === undefined) return {};
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || Math.abs(seconds * 1000) > DATE_MS_MAX) {
    return { error: 'Enter a valid date and time' };
  }
  return { value: new Date(Math.floor(seconds) * 1000).toISOString().replace('.000Z', 'Z') };
}

function number(value: unknown, integer: boolean): Read {
  if (typeof value !== 'string' || value.trim() === '') return {};
  const n = Number(value.trim());
  if (!DECIMAL.test(value.trim()) || !Number.isFinite(n)) return { error: 'Enter a number' };
  if (integer && !Number.isInteger(n)) return { error: 'Enter a whole number' };
  return { value: n };
}

function boolean(selected: unknown): Read {
  const value = isRecord(selected) ? selected.value : undefined;
  if (value === undefined) return {};
  return value === YES ? { value: true } : value === NO ? { value: false } : { error: 'Choose Yes or No' };
}

function single(options: SelectOption[], selected: unknown): Read {
  if (!isRecord(selected)) return {};
  const option = optionAt(options, selected.value);
  return option ? { value: option.value } : { error: 'Choose one of the options' };
}

function multi(options: SelectOption[], selected: unknown, required: boolean): Read {
  const list = Array.isArray(selected) ? selected : [];
  const chosen = list.map((s) => (isRecord(s) ? optionAt(options, s.value) : undefined));
  if (chosen.some((o) => o === undefined)) return { error: 'Choose from the listed options' };
  if (chosen.length === 0) return required ? { value: [] } : {};
  // Keep the schema's option order, whatever order Slack reports the picks in.
  return { value: options.filter((o) => chosen.includes(o)).map((o) => o.value) };
}

function optionAt(options: SelectOption[], value: unknown): SelectOption | undefined {
  const index = typeof value === 'string' ? optionIndex(value) : undefined;
  return index === undefined ? undefined : options[index];
}
