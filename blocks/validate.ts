// ajv validation of typed content against a FormSpec's normalized schema, with errors written for people.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FieldSpec, FormSpec } from './spec.js';

const ajv = new Ajv({ allErrors: true });
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

/** Errors keyed by block_id, the first per field; empty when `content` is valid. */
export function validationErrors(spec: FormSpec, content: object): Record<string, string> {
  const validate = validatorFor(spec.schema);
  if (validate(content)) return {};
  const errors: Record<string, string> = {};
  for (const error of validate.errors ?? []) {
    const field = spec.fields.find((f) => f.name === propertyOf(error));
    if (field && !(field.blockId in errors)) errors[field.blockId] = messageFor(error, field);
  }
  return errors;
}

function propertyOf(error: ErrorObject): string | undefined {
  if (error.keyword === 'required') return (error.params as { missingProperty?: string }).missingProperty;
  const first = error.instancePath.split('/')[1];
  return first?.replace(/~1/g, '/').replace(/~0/g, '~');
}

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'Enter a valid email address',
  uri: 'Enter a valid URL, like https://example.com',
  date: 'Enter a valid date',
  'date-time': 'Enter a valid date and time',
};

function messageFor(error: ErrorObject, field: FieldSpec): string {
  const { limit, format } = error.params as { limit?: number; format?: string };
  const n = limit ?? 0;
  switch (error.keyword) {
    case 'required':
      return 'This field is required';
    case 'minLength':
      return `Must be at least ${n} ${n === 1 ? 'character' : 'characters'}`;
    case 'maxLength':
      return `Must be at most ${n} ${n === 1 ? 'character' : 'characters'}`;
    case 'minimum':
      return `Must be at least ${n}`;
    case 'maximum':
      return `Must be at most ${n}`;
    case 'minItems':
      return `Choose at least ${n}`;
    case 'maxItems':
      return `Choose at most ${n}`;
    case 'format':
      return FORMAT_MESSAGES[format ?? ''] ?? 'Enter a valid value';
    case 'pattern':
      return 'Does not match the expected format';
    case 'enum':
      return 'Choose one of the options';
    case 'type':
      return field.kind === 'integer' ? 'Enter a whole number' : 'Enter a valid value';
    default:
      return 'Enter a valid value';
  }
}
