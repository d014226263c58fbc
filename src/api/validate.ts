// ajv validators built from schemas.ts (the same objects the OpenAPI document shows). A refusal names the
// field's path and what it expects, e.g. "/to/channel: must be a channel id like C… or G…, got "#general"";
// refusals.ts words it from ajv's errors.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ApiError } from './errors.js';
import { describe, escapePointer } from './refusals.js';
import { MAX_NESTING } from './schemas.js';

/** `verbose`: each error carries the value and the schema it is about, which refusals.ts words. */
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
addFormats.default(ajv);
/** Query strings are text: `wait=5` becomes 5 before the schema sees it. */
const coercing = new Ajv2020({ allErrors: true, strict: true, coerceTypes: true, verbose: true });

export interface Validator<T> {
  /** Returns the value typed as T, or throws ApiError('invalid_request') naming the path at fault. */
  (value: unknown): T;
}

export function validator<T>(schema: object, options: { coerce?: boolean } = {}): Validator<T> {
  const check: ValidateFunction = (options.coerce ? coercing : ajv).compile(schema);
  return (value) => {
    const deep = tooDeep(value);
    if (deep !== undefined)
      throw new ApiError(
        'invalid_request',
        `${deep}: must not nest objects and arrays more than ${MAX_NESTING} levels deep`,
      );
    if (check(value)) return value as T;
    throw new ApiError('invalid_request', describe(check.errors ?? []));
  };
}

/** The path of the first field of a request body (or the body itself) nesting deeper than MAX_NESTING. */
function tooDeep(value: unknown): string | undefined {
  if (!isRecord(value)) return nestsDeeper(value) ? '/' : undefined;
  for (const [name, field] of Object.entries(value)) if (nestsDeeper(field)) return `/${escapePointer(name)}`;
  return undefined;
}

/**
 * Whether `value` nests objects and arrays deeper than MAX_NESTING (also for a gateway call's arguments, which
 * reach no validator). Walked with a stack, not recursion: the very values this refuses would overflow one.
 */
export function nestsDeeper(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, level] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (level > MAX_NESTING) return true;
    const children: unknown[] = Object.values(item);
    for (const child of children) stack.push([child, level + 1]);
  }
  return false;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
