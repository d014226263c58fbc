// Two ways a tool's inputSchema can pass draft-07's meta-schema (tool-meta-schema.ts) and still trouble `/mcp run`:
// a `pattern` no ECMA-262 reading takes (the meta-schema's `format: "regex"` is not asserted), which would leave
// the whole schema unchecked, and a `required` name that `additionalProperties: false` forbids, which no answer can
// pass. The first is the server's to read (a Python or Go server reads its own dialect: `(?i)`, `(?P<name>…)`): it
// is left out of the copy the bot checks with, so the rest is still checked. The second is refused, named by its
// property.
import { ecmaRegExp } from './patterns.js';
import { SchemaError } from './spec.js';
import { problemAt } from './tool-meta-schema.js';
import { truncate } from './text.js';

type Node = Record<string, unknown>;
type Located = readonly [path: readonly string[], schema: Node];

/** Characters of a required name shown in a problem (a long one is cut). */
const NAME_MAX = 200;

/** draft-07's keywords whose value is one schema (`items` may instead be a list). */
const ONE_SCHEMA = new Set([
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
const SCHEMA_LISTS = new Set(['items', 'allOf', 'anyOf', 'oneOf']);
/** Keywords whose value maps names to schemas (a `dependencies` entry may instead be a list of names). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);

/**
 * Objects and arrays nested at most this deep in a tool's inputSchema (a property's schema is two levels below
 * its parent's, `properties` between them). ajv's meta-schema check and compile recurse per level and overflowed
 * the stack from about 1,500 levels: a RangeError out of `/mcp run` rather than a refusal.
 */
export const SCHEMA_NESTING_MAX = 128;

/** The refusal of a schema nesting deeper than SCHEMA_NESTING_MAX; walked with a stack, not recursion. */
export function tooDeep(schema: unknown): SchemaError | undefined {
  const stack: [unknown, number][] = [[schema, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, level] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (level > SCHEMA_NESTING_MAX)
      return new SchemaError(
        `the schema nests objects and arrays more than ${SCHEMA_NESTING_MAX} levels deep`,
      );
    for (const child of Object.values(item)) stack.push([child, level + 1]);
  }
  return undefined;
}

/**
 * Drops, from `schema` (a copy the caller owns), every `pattern` no ECMA-262 reading takes (patterns.ts: with the
 * `u` flag or without it, as ajv compiles them here), in every subschema: such a pattern is the server's to
 * check, and ajv would otherwise refuse to compile the whole schema, leaving every other constraint unchecked too.
 * A `patternProperties` key is left as it is (dropping it would change which properties are allowed): a schema
 * with an unreadable one stays unchecked, as before.
 */
export function dropUnreadablePatterns(schema: Node): void {
  for (const [, node] of subschemas(schema, [])) {
    if (typeof node.pattern === 'string' && ecmaRegExp(node.pattern) === undefined) delete node.pattern;
  }
}

/**
 * A `required` name that no answer can have: not in `properties`, beside `additionalProperties: false` and no
 * `patternProperties`. Looked for where the arguments object must hold: the root, its `allOf` members,
 * and, within those, each required property whose schema is an object. A name defined elsewhere (another
 * `allOf` member, a pattern, open additional properties) is draft-07 and stays allowed.
 */
export function unsatisfiableRequired(schema: Node): SchemaError | undefined {
  return requiredProblem(schema, []);
}

function requiredProblem(schema: Node, path: readonly string[]): SchemaError | undefined {
  const required = Array.isArray(schema.required) ? schema.required.filter(isString) : [];
  const properties = isNode(schema.properties) ? schema.properties : {};
  if (schema.additionalProperties === false && !patternAllows(schema)) {
    const stuck = required.find((name) => !Object.hasOwn(properties, name));
    if (stuck !== undefined) return requiredNames(path, stuck);
  }
  const members = Array.isArray(schema.allOf) ? schema.allOf : [];
  const within: Located[] = [
    ...members.flatMap((member, i): Located[] =>
      isNode(member) ? [[[...path, 'allOf', `${i}`], member]] : [],
    ),
    ...required.flatMap((name): Located[] => {
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      return isNode(property) && property.type === 'object'
        ? [[[...path, 'properties', name], property]]
        : [];
    }),
  ];
  for (const [at, node] of within) {
    const problem = requiredProblem(node, at);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function requiredNames(path: readonly string[], name: string): SchemaError {
  const what = `required names ${JSON.stringify(truncate(name, NAME_MAX))}, which the schema does not allow`;
  return path.length === 0 ? new SchemaError(what) : problemAt(path, what);
}

/**
 * Whether a `patternProperties` may allow the name: any pattern may, as far as the bot tells. The server's
 * regexes are never run here against its own names: one that backtracks catastrophically (`^(a+)+$` against 30
 * a's and a "!") held the event loop for minutes at each `/mcp run` of the tool, with nobody typing anything.
 */
function patternAllows(schema: Node): boolean {
  return isNode(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0;
}

/** `schema` and every schema within it (draft-07's applicator keywords), each with its path from the root. */
function* subschemas(schema: Node, path: readonly string[]): Generator<Located> {
  yield [path, schema];
  for (const [key, value] of Object.entries(schema)) {
    for (const [at, child] of childrenOf(key, value)) yield* subschemas(child, [...path, key, ...at]);
  }
}

function childrenOf(key: string, value: unknown): Located[] {
  if (ONE_SCHEMA.has(key) && isNode(value)) return [[[], value]];
  if (SCHEMA_LISTS.has(key) && Array.isArray(value)) return nodesOf(value.entries());
  if (SCHEMA_MAPS.has(key) && isNode(value)) return nodesOf(Object.entries(value));
  return [];
}

function nodesOf(entries: Iterable<[number | string, unknown]>): Located[] {
  return [...entries].flatMap(([at, child]): Located[] => (isNode(child) ? [[[`${at}`], child]] : []));
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
