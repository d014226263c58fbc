// A 2026-07-28 tool's `x-mcp-header` declarations (SEP-2243): a property of its inputSchema may name an HTTP
// header into which the client mirrors that argument (`Mcp-Param-<name>`) on tools/call, and a Streamable HTTP
// client MUST leave out a tool whose declarations break the spec's constraints (its arguments cannot be mirrored,
// and a server that checks the headers refuses each call, -32020). The SDK's Client leaves such a tool out of its
// own tools/list (`Client._excludeInvalidXMcpHeaderTools`, over `scanXMcpHeaderDeclarations` in core-internal's
// src/shared/mcpParamHeaders.ts, @modelcontextprotocol/client 2.4.0: dist/src-*.mjs), but exports neither, and
// says of the tools it drops only a console.warn. These are its rules and its words, so that the bot's listing
// (tool-listing.ts) refuses the same tools by name, whichever way it read them: the first fault in the same walk
// (a `number` type's first, whatever follows), placed as keys below the tool, e.g.
// ['inputSchema', 'properties', 'region', 'x-mcp-header']. The walk keeps its own stack (no recursion), so a
// server's schema nested however deep does not grow the call stack.
import type { Client } from '@modelcontextprotocol/client';

/** Where a declaration breaks the rules (keys below the tool) and what is wrong, in the SDK's words. */
export interface HeaderProblem {
  path: string[];
  message: string;
}

const KEY = 'x-mcp-header';
/** RFC 9110 §5.1 `token` (1*tchar): no spaces, control characters or delimiters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The types the spec admits on a declaring property; `number` is refused apart (see headerProblem). */
const PRIMITIVE_TYPES = new Set(['string', 'integer', 'boolean']);
/** The keywords a declaration may not sit under, in the SDK's order (its faults come in this order). */
const UNREACHABLE_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
/** Of those, the ones whose value is a map of name → subschema rather than a subschema or a list of them. */
const MAP_KEYWORDS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);
const UNREACHABLE =
  "x-mcp-header is only permitted on properties statically reachable via a chain of 'properties' keys (not under items, additionalProperties, oneOf/anyOf/allOf/not, if/then/else, or $ref)";

/**
 * Whether the SDK's listing on `client` leaves out tools for their declarations: a 2026-07-28 session on any
 * transport but stdio (the SDK tells stdio by its `stderr` and `pid`; a 2025 era has no such headers).
 */
export function mirrorsParamHeaders(client: Client): boolean {
  const transport = client.transport;
  if (client.getProtocolEra() !== 'modern' || transport === undefined) return false;
  return !('stderr' in transport && 'pid' in transport);
}

/** A schema node, as the SDK walks one: any object, lists too (their keys are their indexes). */
type SchemaNode = Readonly<Record<string, unknown>>;

/** One node to judge: its place (keys from the inputSchema, linked backwards) and whether it is reachable. */
interface Visit {
  node: SchemaNode;
  at: Place | undefined;
  reachable: boolean;
}

interface Place {
  key: string;
  up: Place | undefined;
}

/** The first problem of `inputSchema`'s declarations, undefined when they are all valid (or there are none). */
export function headerProblem(inputSchema: unknown): HeaderProblem | undefined {
  const seen = new Map<string, string>();
  let numberFault: HeaderProblem | undefined;
  const stack: Visit[] = isNode(inputSchema) ? [{ node: inputSchema, at: undefined, reachable: true }] : [];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const fault = KEY in visit.node ? declarationFault(visit, seen) : undefined;
    if (fault !== undefined) {
      const problem = { path: pathOf({ key: KEY, up: visit.at }), message: fault.message };
      if (fault.numberOnly !== true) return numberFault ?? problem;
      numberFault ??= problem;
    }
    // Children are pushed last first, so they are judged in the SDK's depth-first order (one at a time: a
    // server's schema may have more properties than a spread's arguments may be).
    for (const child of childrenOf(visit).reverse()) stack.push(child);
  }
  return numberFault;
}

/** What is wrong with `visit`'s declaration; `numberOnly` when it is only a `number` type (the walk goes on). */
function declarationFault(
  visit: Visit,
  seen: Map<string, string>,
): { message: string; numberOnly?: boolean } | undefined {
  const { node, at, reachable } = visit;
  if (!reachable || at === undefined) return { message: UNREACHABLE };
  const name = node[KEY];
  if (typeof name !== 'string' || name.length === 0)
    return { message: 'x-mcp-header MUST be a non-empty string' };
  if (!TOKEN.test(name))
    return {
      message: `x-mcp-header '${name}' is not a valid RFC 9110 token (no spaces, control characters or HTTP delimiters)`,
    };
  const type = typeof node['type'] === 'string' ? node['type'] : undefined;
  const prior = seen.get(name.toLowerCase());
  if (type === undefined || !PRIMITIVE_TYPES.has(type)) {
    const message = `x-mcp-header is only permitted on primitive-typed properties (string, integer, boolean); got ${type ?? '<none>'}`;
    if (type !== 'number') return { message };
    // A `number` declaration is still a declaration: its name counts for uniqueness, as in the SDK.
    if (prior === undefined) seen.set(name.toLowerCase(), name);
    return prior === undefined ? { message, numberOnly: true } : { message };
  }
  if (prior !== undefined)
    return {
      message: `x-mcp-header '${name}' is not case-insensitively unique (also declared as '${prior}')`,
    };
  seen.set(name.toLowerCase(), name);
  return undefined;
}

/** `visit`'s subschemas in the SDK's order: its `properties` (reachable as it is), then the unreachable ones. */
function childrenOf({ node, at, reachable }: Visit): Visit[] {
  const children: Visit[] = [];
  const properties = node['properties'];
  if (isNode(properties)) {
    const under: Place = { key: 'properties', up: at };
    for (const [key, child] of Object.entries(properties))
      if (isNode(child)) children.push({ node: child, at: { key, up: under }, reachable });
  }
  for (const keyword of UNREACHABLE_KEYWORDS) {
    const value = node[keyword];
    if (value === undefined) continue;
    const place: Place = { key: keyword, up: at };
    const branches: [string | undefined, unknown][] =
      Array.isArray(value) || (isNode(value) && MAP_KEYWORDS.has(keyword))
        ? Object.entries(value)
        : [[undefined, value]];
    for (const [key, branch] of branches)
      if (isNode(branch))
        children.push({ node: branch, at: key === undefined ? place : { key, up: place }, reachable: false });
  }
  return children;
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null;
}

/** The keys below the tool: `inputSchema`, then each key down to `at`. */
function pathOf(at: Place): string[] {
  const keys: string[] = [];
  for (let place: Place | undefined = at; place !== undefined; place = place.up) keys.push(place.key);
  return ['inputSchema', ...keys.reverse()];
}
