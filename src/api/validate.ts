// ajv validators built from schemas.ts (the same objects the OpenAPI document shows). A refusal names the
// field's path, e.g. "/to/channel: must be a channel id like C…", picking the error about the field the client
// actually sent: a oneOf (the recipients) fails in every branch, and the branches the client did not mean
// ("required user" when it sent a channel) must not hide the one it did.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ApiError } from './errors.js';
import { MAX_NESTING, PATTERN_WORDS } from './schemas.js';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats.default(ajv);
/** Query strings are text: `wait=5` becomes 5 before the schema sees it. */
const coercing = new Ajv2020({ allErrors: true, strict: true, coerceTypes: true });

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

/**
 * The most specific error: the deepest path; at equal depth, an error about a value the client sent (a
 * pattern, a bound, then a type) before an unknown field, before a missing one, before the oneOf around them.
 */
export function describe(errors: readonly ErrorObject[]): string {
  const paths = errors.map((e) => ({ error: e, path: pathOf(e) }));
  paths.sort((a, b) => depth(b.path) - depth(a.path) || rank(a.error) - rank(b.error));
  const first = paths[0];
  if (!first) return 'the request is not valid';
  const oneOf = missingOneOf(first.error, errors);
  if (oneOf) return oneOf;
  return `${first.path || '/'}: ${messageOf(first.error)}`;
}

/** Errors that only say another oneOf branch was meant, least specific last. */
const STRUCTURAL: Readonly<Record<string, number>> = {
  type: 1,
  additionalProperties: 2,
  required: 3,
  oneOf: 4,
  anyOf: 4,
};

const rank = (error: ErrorObject): number => STRUCTURAL[error.keyword] ?? 0;

/** A pattern the schemas explain in words says what is expected; ajv's own message shows the regex. */
function messageOf(error: ErrorObject): string {
  const pattern: unknown = error.params.pattern;
  const expected =
    error.keyword === 'pattern' && typeof pattern === 'string' ? PATTERN_WORDS.get(pattern) : undefined;
  return expected === undefined ? (error.message ?? 'is not valid') : `must be ${expected}`;
}

/**
 * With none of a oneOf's keys sent (`"to": {}`), every branch misses its own: naming the first alone ("must
 * have required property 'user'") would read as if only that one would do.
 */
function missingOneOf(chosen: ErrorObject, errors: readonly ErrorObject[]): string | undefined {
  const at = chosen.schemaPath.lastIndexOf('/oneOf/');
  if (chosen.keyword !== 'required' || at < 0) return undefined;
  const prefix = chosen.schemaPath.slice(0, at + '/oneOf/'.length);
  const missing = errors
    .filter((e) => e.keyword === 'required' && e.instancePath === chosen.instancePath)
    .filter((e) => e.schemaPath.startsWith(prefix))
    .map((e): unknown => e.params.missingProperty);
  if (missing.length < 2) return undefined;
  const names = missing.map((name) => `'${String(name)}'`).join(', ');
  return `${chosen.instancePath || '/'}: must have one of ${names}`;
}

function pathOf(error: ErrorObject): string {
  const params: Record<string, unknown> = error.params;
  const extra =
    params.additionalProperty ?? (error.keyword === 'required' ? params.missingProperty : undefined);
  return typeof extra === 'string' ? `${error.instancePath}/${escapePointer(extra)}` : error.instancePath;
}

const depth = (path: string): number => path.split('/').length;

/** JSON Pointer escaping (RFC 6901): "~" → "~0", "/" → "~1". */
const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

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
