// One property schema → one FieldSpec plus the normalized schema it is validated against.
import { constraints } from './constraints.js';
import { describe, isRecord, type Raw } from './guards.js';
import { options as parseOptions } from './options.js';
import { boundedTest, ecmaRegExp } from './patterns.js';
import { looksSecret } from './secrets.js';
import { visible } from './text.js';
import { meetsFormat, meetsSchema } from './validate.js';
import {
  SchemaError,
  type BooleanField,
  type FieldSpec,
  type MultiSelectField,
  type NumberField,
  type SingleSelectField,
  type TextField,
  type TextFormat,
} from './spec.js';

type Common = Pick<FieldSpec, 'name' | 'blockId' | 'actionId' | 'required'>;
type Labelled = Common & { label: string; hint?: string; secret?: boolean };
export interface ParsedField {
  field: FieldSpec;
  schema: object;
}

const FORMATS: readonly string[] = ['email', 'uri', 'date', 'date-time'];

export function parseField(raw: unknown, common: Common, index: number): ParsedField {
  const fail = (message: string): never => {
    throw new SchemaError(message, common.name);
  };
  if (!isRecord(raw)) return fail(`must be a schema object, got ${describe(raw)}`);
  if ('$ref' in raw) return fail('"$ref" is not supported; the schema must be flat');
  const base = labelled(raw, common, index);
  switch (raw.type) {
    case 'string':
      return isSelect(raw) ? singleSelect(raw, base) : text(raw, base);
    case 'number':
    case 'integer':
      return numeric(raw, base, raw.type);
    case 'boolean':
      return boolean(raw, base);
    case 'array':
      return multiSelect(raw, base);
    case 'object':
      return fail('type "object" (a nested object) is not supported; the schema must be flat');
    case undefined:
      return fail('has no "type"');
    default:
      return fail(`type ${describe(raw.type)} is not supported`);
  }
}

function labelled(raw: Raw, common: Common, index: number): Labelled {
  const title = typeof raw.title === 'string' ? raw.title.trim() : '';
  const description = typeof raw.description === 'string' ? raw.description.trim() : '';
  // A title or name with nothing visible once drawn (only zero-width or bidi characters, which plain() strips)
  // would be a blank label, which Slack refuses: the next candidate is taken instead.
  const label = [title, common.name.trim()].find(visible) ?? `Field ${index + 1}`;
  const secret = looksSecret(common.name, title, description) && { secret: true };
  // A description with nothing visible would be a blank hint, which Slack refuses as well: it is left out.
  return { ...common, label, ...(visible(description) && { hint: description }), ...secret };
}

function text(raw: Raw, base: Labelled): ParsedField {
  const minLength = count(raw, 'minLength', base.name);
  const maxLength = count(raw, 'maxLength', base.name);
  ordered(minLength, maxLength, 'minLength', 'maxLength', base.name);
  const format =
    typeof raw.format === 'string' && FORMATS.includes(raw.format) ? (raw.format as TextFormat) : undefined;
  const pattern = patternOf(raw, base.name);
  const field: TextField = { ...base, kind: 'text', ...defined({ format, minLength, maxLength, pattern }) };
  const rules = constraints(raw, 'string', base.name);
  const schema = { type: 'string', ...defined({ minLength, maxLength, format, pattern }), ...rules };
  const value = raw.default;
  if (typeof value === 'string' && textFits(field, value) && meetsRules(rules, schema, value))
    field.default = value;
  return { field, schema };
}

function textFits(field: TextField, value: string): boolean {
  const length = Array.from(value).length;
  if (field.minLength !== undefined && length < field.minLength) return false;
  if (field.maxLength !== undefined && length > field.maxLength) return false;
  // The rule a submission is held to (validate.ts), not Date.parse: that takes "2025-02-30" (as 2 March) and
  // reads a date-time without an offset in the process's time zone, which ajv-formats refuses (RFC 3339).
  if (field.format !== undefined && !meetsFormat(field.format, value)) return false;
  if (field.pattern === undefined) return true;
  // Read as validate.ts reads it, and bounded in time: the default is the sender's, but so is the pattern.
  const regex = ecmaRegExp(field.pattern);
  return regex !== undefined && boundedTest(regex, value);
}

function numeric(raw: Raw, base: Labelled, kind: 'number' | 'integer'): ParsedField {
  const minimum = finite(raw, 'minimum', base.name);
  const maximum = finite(raw, 'maximum', base.name);
  ordered(minimum, maximum, 'minimum', 'maximum', base.name);
  const field: NumberField = { ...base, kind, ...defined({ minimum, maximum }) };
  const rules = constraints(raw, 'number', base.name);
  const schema = { type: kind, ...defined({ minimum, maximum }), ...rules };
  const value = raw.default;
  const fits =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    // Past ±2^53 a submitted integer is refused (submission.ts), so such a default is not pre-filled either.
    (kind === 'number' || Number.isSafeInteger(value)) &&
    (minimum === undefined || value >= minimum) &&
    (maximum === undefined || value <= maximum);
  if (fits && meetsRules(rules, schema, value)) field.default = value;
  return { field, schema };
}

function boolean(raw: Raw, base: Labelled): ParsedField {
  const field: BooleanField = { ...base, kind: 'boolean' };
  const rules = constraints(raw, 'boolean', base.name);
  const schema = { type: 'boolean', ...rules };
  if (typeof raw.default === 'boolean' && meetsRules(rules, schema, raw.default)) field.default = raw.default;
  return { field, schema };
}

/** Whether a default meets the field's constraints (constraints.ts); compiled only when it has some. */
function meetsRules(rules: Raw, schema: object, value: unknown): boolean {
  return Object.keys(rules).length === 0 || meetsSchema(schema, value);
}

/**
 * Whether a text property is a single-select: an `enum` (with or without enumNames), a titled `oneOf`, or an
 * `anyOf` of consts, as schema generators write a union of literals (Pydantic, zod). Read as text, such a field
 * took anything typed, which the server then refused. An `anyOf` of other forms (formats, patterns) lists no
 * choices: the field stays text, that keyword left to the server, as any other it does not know.
 */
function isSelect(raw: Raw): boolean {
  if ('oneOf' in raw || 'enum' in raw) return true;
  const forms = raw.anyOf;
  return Array.isArray(forms) && forms.length > 0 && forms.every((f) => isRecord(f) && 'const' in f);
}

function singleSelect(raw: Raw, base: Labelled): ParsedField {
  const options = parseOptions(raw, base.name);
  const field: SingleSelectField = { ...base, kind: 'single-select', options };
  if (typeof raw.default === 'string' && options.some((o) => o.value === raw.default))
    field.default = raw.default;
  return { field, schema: { type: 'string', enum: options.map((o) => o.value) } };
}

function multiSelect(raw: Raw, base: Labelled): ParsedField {
  const items = raw.items;
  if (!isRecord(items)) throw new SchemaError('type "array" needs "items" with "enum" or "anyOf"', base.name);
  if (items.type === 'object') throw new SchemaError('type "array" of objects is not supported', base.name);
  if (!('enum' in items) && !('anyOf' in items)) {
    throw new SchemaError(
      'type "array" is only supported as a multi-select: "items" needs "enum" or "anyOf"',
      base.name,
    );
  }
  const options = parseOptions(items, base.name);
  const minItems = count(raw, 'minItems', base.name);
  const maxItems = count(raw, 'maxItems', base.name);
  ordered(minItems, maxItems, 'minItems', 'maxItems', base.name);
  if (minItems !== undefined && minItems > options.length) {
    throw new SchemaError(`minItems ${minItems} is more than the ${options.length} options`, base.name);
  }
  const field: MultiSelectField = {
    ...base,
    kind: 'multi-select',
    options,
    ...defined({ minItems, maxItems }),
  };
  if (multiFits(field, raw.default)) field.default = [...new Set(raw.default)];
  const values = options.map((o) => o.value);
  const schema = { type: 'array', items: { type: 'string', enum: values }, uniqueItems: true };
  return { field, schema: { ...schema, ...defined({ minItems, maxItems }) } };
}

function multiFits(field: MultiSelectField, value: unknown): value is string[] {
  if (!Array.isArray(value) || !value.every((v) => field.options.some((o) => o.value === v))) return false;
  const size = new Set(value).size;
  return size >= (field.minItems ?? 0) && size <= (field.maxItems ?? Infinity);
}

function count(raw: Raw, key: string, name: string): number | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new SchemaError(`"${key}" must be a non-negative integer, got ${describe(value)}`, name);
  }
  return value;
}

function finite(raw: Raw, key: string, name: string): number | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SchemaError(`"${key}" must be a number, got ${describe(value)}`, name);
  }
  return value;
}

function ordered(
  low: number | undefined,
  high: number | undefined,
  lowKey: string,
  highKey: string,
  name: string,
) {
  if (low !== undefined && high !== undefined && low > high) {
    throw new SchemaError(`"${lowKey}" (${low}) is greater than "${highKey}" (${high})`, name);
  }
}

/**
 * The field's `pattern` when ECMA-262 reads it (patterns.ts: with the `u` flag or, failing that, without it).
 * One no reading takes is in the sender's own dialect (Python's `(?i)`, `(?P<name>…)`): the question is still
 * asked, that field's answer left to the sender to check against it (the rest of its rules still held).
 */
function patternOf(raw: Raw, name: string): string | undefined {
  if (raw.pattern === undefined) return undefined;
  if (typeof raw.pattern !== 'string') throw new SchemaError('"pattern" must be a string', name);
  return ecmaRegExp(raw.pattern) === undefined ? undefined : raw.pattern;
}

/** The entries of `values` that are not undefined (so optional keys stay absent, not undefined). */
function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
