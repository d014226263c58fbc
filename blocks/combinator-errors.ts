// The errors ajv keeps from the forms of an `anyOf` or `oneOf` that none (or several) matched. Each form's own
// errors are no problem the person has: the combinator's error says none matched. A form written inline has them
// under the combinator's schema path; a form that is a `$ref` (Pydantic writes unions as `oneOf` of `$ref`s to
// `$defs`) has them under its target's path, `#/$defs/Cat/required`, so they are found here by following the
// forms' local `$ref`s. Pure: ajv's errors and the schema they came from in, the errors to show out.
import type { ErrorObject } from 'ajv';
import { pointerName } from './json-pointer.js';

/**
 * Schema nodes walked to find the `$ref`s of all the failed combinators' forms, in all: a hostile schema may be
 * huge. Past it, a combinator's forms reached by `$ref`s not yet found show their errors, as ajv gives them.
 */
const WALK_NODES_MAX = 50_000;

/**
 * `errors` (ajv's, in its order) without those of a failed `anyOf`/`oneOf`'s forms: ajv writes a combinator's
 * error right after its forms' errors, so they are the run of errors just before it, at its value or below, whose
 * schema path lies in one of its forms or in a schema its forms reach by a local `$ref`.
 */
export function withoutFormErrors(errors: readonly ErrorObject[], schema: unknown): ErrorObject[] {
  const inside = new Set<ErrorObject>();
  const walk = { schema, nodesLeft: WALK_NODES_MAX, prefixes: new Map<string, string[]>() };
  errors.forEach((error, index) => {
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') return;
    const prefixes = formPrefixes(walk, error.schemaPath);
    for (let before = index - 1; before >= 0; before -= 1) {
      const other = errors[before];
      if (other === undefined || !within(other.instancePath, error.instancePath)) break;
      if (!prefixes.some((prefix) => other.schemaPath.startsWith(prefix))) break;
      inside.add(other);
    }
  });
  return errors.filter((error) => !inside.has(error));
}

const within = (path: string, parent: string): boolean => path === parent || path.startsWith(`${parent}/`);

interface Walk {
  schema: unknown;
  nodesLeft: number;
  /** By a combinator's schema path: the schema paths its forms' errors start with. */
  prefixes: Map<string, string[]>;
}

/** The schema paths under the combinator at `schemaPath`: its own, and each local `$ref` its forms reach. */
function formPrefixes(walk: Walk, schemaPath: string): string[] {
  const known = walk.prefixes.get(schemaPath);
  if (known !== undefined) return known;
  const prefixes = [`${schemaPath}/`];
  const followed = new Set<string>();
  const stack: unknown[] = [at(walk.schema, schemaPath)];
  for (let node = stack.pop(); node !== undefined && walk.nodesLeft > 0; node = stack.pop()) {
    walk.nodesLeft -= 1;
    if (typeof node !== 'object' || node === null) continue;
    const ref: unknown = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && !followed.has(ref)) {
      followed.add(ref);
      prefixes.push(`${ref}/`);
      stack.push(at(walk.schema, ref));
    }
    for (const child of Object.values(node)) stack.push(child);
  }
  walk.prefixes.set(schemaPath, prefixes);
  return prefixes;
}

/** The node at a JSON Pointer fragment (`#/$defs/Cat`, RFC 6901), or undefined when there is none. */
function at(schema: unknown, fragment: string): unknown {
  const tokens = fragment === '#' ? [] : fragment.slice(2).split('/');
  let node = schema;
  for (const token of tokens) {
    if (typeof node !== 'object' || node === null) return undefined;
    const key = pointerName(token);
    node = Object.getOwnPropertyDescriptor(node, key)?.value;
  }
  return node;
}
