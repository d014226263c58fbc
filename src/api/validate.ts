// ajv validators built from schemas.ts (the same objects the OpenAPI document shows). A refusal names the
// field's path, e.g. "/to/user: must match pattern …", picking the deepest error so that a oneOf's failed
// branches do not hide the field that is actually wrong.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ApiError } from './errors.js';

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
    if (check(value)) return value as T;
    throw new ApiError('invalid_request', describe(check.errors ?? []));
  };
}

/** The most specific error: the deepest path, and for an unknown field the field itself. */
export function describe(errors: readonly ErrorObject[]): string {
  const paths = errors.map((e) => ({ error: e, path: pathOf(e) }));
  paths.sort((a, b) => depth(b.path) - depth(a.path));
  const first = paths[0];
  if (!first) return 'the request is not valid';
  return `${first.path || '/'}: ${first.error.message ?? 'is not valid'}`;
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
