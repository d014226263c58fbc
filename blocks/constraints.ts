// Keywords outside MCP's elicitation subset that still constrain an answer: `enum` and `const` on a number,
// integer or boolean, `const` on text, and a number's `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`.
// The SDK's form check lets them through (its field shapes are not strict) and a server's own validator (the
// SDK's ajv) holds the content to them, so a form that ignored them sent answers the server refused: an integer
// `enum`, an `exclusiveMinimum: 0`, a boolean `const: true` for "I agree". The form holds answers to them too.
import { describe, type Raw } from './guards.js';
import { SchemaError } from './spec.js';

/** The JSON type of the answer a field sends. */
export type AnswerType = 'string' | 'number' | 'boolean';

/** The keywords of `raw` that constrain an answer of `type`, for the field's normalized schema (shape checked). */
export function constraints(raw: Raw, type: AnswerType, name: string): Raw {
  const fail = (message: string): never => {
    throw new SchemaError(message, name);
  };
  const fits = (v: unknown) =>
    type === 'number' ? typeof v === 'number' && Number.isFinite(v) : typeof v === type;
  const kept: Raw = {};
  if ('const' in raw)
    kept.const = fits(raw.const) ? raw.const : fail(`"const" must be a ${type}, got ${describe(raw.const)}`);
  // A text field's `enum` made it a select (fields.ts), which keeps its own list.
  if (type !== 'string' && 'enum' in raw) {
    const list = raw.enum;
    const valid = Array.isArray(list) && list.length > 0 && list.every(fits);
    // Listed once each: ajv refuses to compile an `enum` with a value twice, and the set of answers is the same.
    kept.enum = valid ? [...new Set(list)] : fail(`"enum" must be a non-empty array of ${type}s`);
  }
  if (type !== 'number') return kept;
  Object.assign(kept, exclusive(raw, 'exclusiveMinimum', 'minimum', fail));
  Object.assign(kept, exclusive(raw, 'exclusiveMaximum', 'maximum', fail));
  const step = raw.multipleOf;
  if (step !== undefined) {
    const valid = typeof step === 'number' && Number.isFinite(step) && step > 0;
    kept.multipleOf = valid
      ? step
      : fail(`"multipleOf" must be a number greater than 0, got ${describe(step)}`);
  }
  return kept;
}

/**
 * An exclusive bound as JSON Schema 2019+ writes it (a number). Draft 4 wrote it as a boolean beside the bound
 * (`minimum: 1, exclusiveMinimum: true`), which a validator of that draft holds the answer to: that bound is kept
 * as an exclusive one. `false`, or `true` with no bound, says nothing.
 */
function exclusive(raw: Raw, key: string, bound: string, fail: (message: string) => never): Raw {
  const value = raw[key];
  if (value === undefined || value === false) return {};
  if (value === true) return typeof raw[bound] === 'number' ? { [key]: raw[bound] } : {};
  return typeof value === 'number' && Number.isFinite(value)
    ? { [key]: value }
    : fail(`"${key}" must be a number, got ${describe(value)}`);
}
