// ajv validation of typed content against a FormSpec's normalized schema, with errors written for people.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { uiText, type Locale, type UiText } from './i18n.js';
import type { FieldSpec, FormSpec } from './spec.js';

// ownProperties: otherwise a property named "constructor" or "valueOf" is read from Object.prototype.
const ajv = new Ajv({ allErrors: true, ownProperties: true });
addFormats.default(ajv, ['email', 'uri', 'date', 'date-time']);

/** Compiled validators kept, by normalized schema text, so a schema is compiled once, not per submission. */
const CACHE_MAX = 200;
const cache = new Map<string, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value ?? '');
    cache.set(key, validate);
  }
  return validate;
}

/** Errors keyed by block_id, the first per field, in `locale` (English by default); {} when valid. */
export function validationErrors(spec: FormSpec, content: object, locale?: Locale): Record<string, string> {
  const t = uiText(locale).errors;
  const validate = validatorFor(spec.schema);
  if (validate(content)) return {};
  const errors: Record<string, string> = {};
  for (const error of validate.errors ?? []) {
    const field = spec.fields.find((f) => f.name === propertyOf(error));
    if (field && !(field.blockId in errors)) errors[field.blockId] = messageFor(error, field, t);
  }
  return errors;
}

function propertyOf(error: ErrorObject): string | undefined {
  if (error.keyword === 'required') return (error.params as { missingProperty?: string }).missingProperty;
  const first = error.instancePath.split('/')[1];
  return first?.replace(/~1/g, '/').replace(/~0/g, '~');
}

function messageFor(error: ErrorObject, field: FieldSpec, t: UiText['errors']): string {
  const { limit, format } = error.params as { limit?: number; format?: string };
  const n = limit ?? 0;
  switch (error.keyword) {
    case 'required':
      return t.required;
    case 'minLength':
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'minItems':
    case 'maxItems':
      return t[error.keyword](n);
    case 'format':
      return formatMessage(format, t);
    case 'pattern':
      return t.pattern;
    case 'enum':
      return t.enum;
    case 'type':
      return field.kind === 'integer' ? t.integer : t.invalid;
    default:
      return t.invalid;
  }
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
