// ajv validation of typed content against a FormSpec's normalized schema, with errors written for people.
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { CompiledSchemas } from './compiled-schemas.js';
import { withDecimalMultipleOf } from './decimals.js';
import { uiText, type Locale, type UiText } from './i18n.js';
import { boundedRegExp } from './patterns.js';
import { OPTION_TEXT_MAX } from './slack-limits.js';
import type { FieldSpec, FormSpec, TextFormat } from './spec.js';
import { neutralise, truncate } from './text.js';

/** Compiled validators, by normalized schema text, so a schema is compiled once, not per submission. */
const compiled = new CompiledSchemas(() => {
  // ownProperties: otherwise a property named "constructor" or "valueOf" is read from Object.prototype.
  // validateSchema off: the schema is the form's own, its shape checked by the parser (schema.ts), and ajv's
  // meta-schema check compares every pair of an `enum`'s values (~34 s for 100,000 numbers, once per schema).
  // code.regExp: a text field's pattern is the sender's, read in its ECMA-262 reading and tested bounded in time.
  // multipleOf on the decimals JSON writes (decimals.ts): ajv's binary division refuses 19.99 for 0.01.
  const ajv = new Ajv({
    allErrors: true,
    ownProperties: true,
    validateSchema: false,
    code: { regExp: boundedRegExp },
  });
  addFormats.default(ajv, ['email', 'uri', 'date', 'date-time']);
  return withDecimalMultipleOf(ajv);
});
const validatorFor = (schema: object) => compiled.validatorFor(schema);

/**
 * Whether `value` is a valid `format` string by the very rule submissions are validated with (ajv-formats' full
 * mode: a real calendar day, a date-time with its offset), so a default the form pre-fills is never refused.
 */
export function meetsFormat(format: TextFormat, value: string): boolean {
  return meetsSchema({ type: 'string', format }, value);
}

/** Whether `value` meets a field's normalized `schema` by the rule submissions are held to. */
export function meetsSchema(schema: object, value: unknown): boolean {
  return validatorFor(schema)(value) === true;
}

/** Errors keyed by block_id, the first per field, in `locale` (English by default); {} when valid. */
export function validationErrors(spec: FormSpec, content: object, locale?: Locale): Record<string, string> {
  const ui = uiText(locale);
  const validate = validatorFor(spec.schema);
  if (validate(byBlockId(spec, content))) return {};
  const errors: Record<string, string> = {};
  for (const error of validate.errors ?? []) {
    const blockId = blockIdOf(error);
    const field = spec.fields.find((f) => f.blockId === blockId);
    if (field && !(field.blockId in errors)) errors[field.blockId] = messageFor(error, field, ui);
  }
  return errors;
}

/**
 * `content` keyed by each field's block id, as spec.schema is: ajv leaves a property named `__proto__` out of
 * "properties" (its allSchemaProperties), so keyed by names such a field's rules would never be checked.
 * Block ids (`f<index>_…`) are unique and never a name special to ajv or to plain objects.
 */
function byBlockId(spec: FormSpec, content: object): Record<string, unknown> {
  return Object.fromEntries(
    spec.fields.flatMap((f): [string, unknown][] => {
      const own = Object.getOwnPropertyDescriptor(content, f.name);
      return own === undefined ? [] : [[f.blockId, own.value]];
    }),
  );
}

function blockIdOf(error: ErrorObject): string | undefined {
  if (error.keyword === 'required') return (error.params as { missingProperty?: string }).missingProperty;
  // Block ids hold only [A-Za-z0-9_-], so the JSON pointer's first segment needs no unescaping.
  return error.instancePath.split('/')[1];
}

/**
 * The person's words for an error of a keyword whose message needs only its own params (required, a bound,
 * multipleOf, pattern), as the form shows it; undefined for the other keywords, which each caller words itself.
 */
export function keywordMessage(error: ErrorObject, ui: UiText): string | undefined {
  const t = ui.errors;
  const { limit, multipleOf } = error.params as { limit?: number; multipleOf?: number };
  switch (error.keyword) {
    case 'required':
      return t.required;
    case 'minLength':
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return t[error.keyword](limit ?? 0);
    case 'multipleOf':
      return t.multipleOf(multipleOf ?? 0);
    case 'pattern':
      return t.pattern;
    default:
      return undefined;
  }
}

function messageFor(error: ErrorObject, field: FieldSpec, ui: UiText): string {
  const t = ui.errors;
  const { limit, format } = error.params as { limit?: number; format?: string };
  switch (error.keyword) {
    case 'minItems':
    case 'maxItems':
      return t[error.keyword](limit ?? 0);
    case 'format':
      return formatMessage(format, t);
    case 'enum':
    case 'const':
      return allowedMessage(error, field, ui);
    case 'type':
      return field.kind === 'integer' ? t.integer : t.invalid;
    default:
      return keywordMessage(error, ui) ?? t.invalid;
  }
}

/** Values an `enum` or `const` error lists before "…": a number field's list is typed from, so it is shown. */
const ALLOWED_SHOWN = 10;
/** Characters of each value shown (a text `const` is the server's, of any length): an option's 75. */
const ALLOWED_CHARS = OPTION_TEXT_MAX;

/**
 * A select's own list refused a value (a forged option): "choose one of the options". Any other field's `enum`
 * or `const` (constraints.ts) is no list the person sees, so the error names the values it takes.
 */
function allowedMessage(error: ErrorObject, field: FieldSpec, ui: UiText): string {
  if (field.kind === 'single-select' || field.kind === 'multi-select') return ui.errors.enum;
  const params = error.params as { allowedValues?: unknown[]; allowedValue?: unknown };
  const values = params.allowedValues ?? [params.allowedValue];
  const shown = values
    .slice(0, ALLOWED_SHOWN)
    .map((v) => (v === true ? ui.yes : v === false ? ui.no : truncate(neutralise(String(v)), ALLOWED_CHARS)));
  return ui.errors.oneOf([...shown, ...(values.length > ALLOWED_SHOWN ? ['…'] : [])].join(', '));
}

function formatMessage(format: string | undefined, t: UiText['errors']): string {
  switch (format) {
    case 'email':
      return t.email;
    case 'uri':
      return t.uri;
    case 'date':
      return t.date;
    case 'date-time':
      return t.dateTime;
    default:
      return t.invalid;
  }
}
