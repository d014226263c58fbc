// Translation between the wire `elicitation/create` and the relay's IncomingElicitation / Outcome.
import { z } from 'zod';
import {
  ElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema,
  ErrorCode,
  McpError,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ClientRequest, ClientNotification } from '@modelcontextprotocol/sdk/types.js';
import { RelayError } from '../relay/errors.js';
import type { Content, Outcome } from '../relay/types.js';
import type { IncomingElicitation } from './types.js';

/** The JSON-RPC codes the client answers an elicitation with when it does not answer it. */
export type RefusalCode = ErrorCode.InvalidParams | ErrorCode.InvalidRequest | ErrorCode.InternalError;

/**
 * An McpError whose message is the reason alone. The SDK sends an error's `message` as is and the server's
 * SDK prefixes "MCP error <code>: " when it builds its own McpError, so McpError's prefix reached servers
 * twice ("MCP error -32602: MCP error -32602: …").
 */
export class RpcRefusal extends McpError {
  override readonly name = 'RpcRefusal';
  constructor(code: RefusalCode, reason: string) {
    super(code, reason);
    this.message = reason;
  }
}

interface Issue {
  path: PropertyKey[];
  message: string;
}

const PROPERTY_HINT = 'fields must be a flat string, number, integer, boolean or enum schema';

/** One line naming the offending property, instead of the SDK's multi-kilobyte union dump. */
function describeIssue(issue: Issue | undefined): string {
  if (issue === undefined) return 'Invalid elicitation request';
  const path = issue.path.map(String);
  if (path[0] === 'requestedSchema' && path[1] === 'properties' && path[2] !== undefined) {
    return `Invalid elicitation request: property "${path[2]}" is not supported (${PROPERTY_HINT})`;
  }
  return `Invalid elicitation request: ${path.length > 0 ? path.join('.') : 'params'}: ${issue.message}`;
}

/**
 * Validates raw `elicitation/create` params exactly as the SDK would (same schemas, chosen by `mode`),
 * and keeps the raw `requestedSchema`: the SDK's parsed copy drops keywords it does not model
 * (`pattern`, `$schema`, unknown keys) that the relay's validator can still use.
 * Throws RpcRefusal -32602 with a short reason when the request is invalid.
 */
export function parseElicitation(params: unknown): IncomingElicitation {
  if (typeof params !== 'object' || params === null) {
    throw new RpcRefusal(ErrorCode.InvalidParams, 'Invalid elicitation request: params must be an object');
  }
  const raw = params as Record<string, unknown>;
  if (raw['mode'] === 'url') {
    const parsed = ElicitRequestURLParamsSchema.safeParse(raw);
    if (!parsed.success) throw new RpcRefusal(ErrorCode.InvalidParams, describeIssue(parsed.error.issues[0]));
    const { message, url, elicitationId } = parsed.data;
    return { mode: 'url', message, url, elicitationId };
  }
  // A missing `mode` is form mode (revision 2025-06-18 has no `mode` at all).
  const parsed = ElicitRequestFormParamsSchema.safeParse(raw);
  if (!parsed.success) throw new RpcRefusal(ErrorCode.InvalidParams, describeIssue(parsed.error.issues[0]));
  return { mode: 'form', message: parsed.data.message, requestedSchema: raw['requestedSchema'] };
}

/**
 * Registered instead of the SDK's ElicitRequestSchema. The SDK parses an incoming request with the schema
 * given to setRequestHandler before its own checks run, so validating here (and throwing the RpcRefusal,
 * which the SDK sends as-is) turns every invalid request into -32602 with a readable reason, while
 * `params` stays untouched for the handler.
 */
export const RawElicitRequestSchema = z
  .object({ method: z.literal('elicitation/create'), params: z.unknown() })
  .superRefine((request) => {
    parseElicitation(request.params);
  });

/**
 * URL mode's accept carries no content (the person consented to open the link; the data goes there). A form's
 * accepted content gets the schema's defaults for the properties the person left out (the `applyDefaults`
 * the client declares), each set as an own property so that every name a schema can hold, `__proto__`
 * included, reaches the server.
 */
export function toElicitResult(
  outcome: Outcome,
  mode: IncomingElicitation['mode'] = 'form',
  requestedSchema?: unknown,
): ElicitResult {
  if (outcome.action !== 'accept') return { action: outcome.action };
  if (mode === 'url') return { action: 'accept' };
  return { action: 'accept', content: withDefaults(requestedSchema, outcome.content) };
}

/** A copy of `content` with each absent top-level property's `default` (flat schemas only, as elicitation allows). */
function withDefaults(requestedSchema: unknown, content: Content): Content {
  const filled: Content = {};
  for (const [name, value] of Object.entries(content)) setOwn(filled, name, value);
  const properties = isRecord(requestedSchema) ? requestedSchema['properties'] : undefined;
  if (!isRecord(properties)) return filled;
  for (const [name, property] of Object.entries(properties)) {
    if (Object.hasOwn(filled, name) || !isRecord(property) || !Object.hasOwn(property, 'default')) continue;
    const value = property['default'];
    if (isContentValue(value)) setOwn(filled, name, value);
  }
  return filled;
}

/** `target[name] = value` would set the prototype for `__proto__`; defining the property never does. */
function setOwn(target: Content, name: string, value: Content[string]): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isContentValue(value: unknown): value is Content[string] {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string');
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * Registers the `elicitation/create` handler on the Protocol layer, below the Client's own wrapper. That
 * wrapper re-parses the handler's result with the SDK's ElicitResultSchema, whose zod record copies the
 * content by assignment, so a property named `__proto__` became the copy's prototype and never reached the
 * server. What the wrapper also does is done here instead: the request is validated by
 * RawElicitRequestSchema, both modes are always declared when a handler exists, the result is built by
 * toElicitResult (defaults included), and no task-augmented elicitation is declared.
 */
type ElicitationExtra = RequestHandlerExtra<ClientRequest, ClientNotification>;

export function setElicitationHandler(
  client: Client,
  handler: (
    request: z.infer<typeof RawElicitRequestSchema>,
    extra: ElicitationExtra,
  ) => Promise<ElicitResult>,
): void {
  Protocol.prototype.setRequestHandler.call(client, RawElicitRequestSchema, handler);
}

/**
 * The JSON-RPC error sent to the server when the sink fails. Only an invalid schema explains itself
 * (its message was written for the server's author); anything else is a generic internal error so
 * that no detail of the bot leaks to the server.
 */
export function toRpcError(error: unknown): RpcRefusal {
  if (error instanceof RelayError && (error.code === 'invalid_schema' || error.code === 'invalid_url')) {
    return new RpcRefusal(ErrorCode.InvalidParams, error.message);
  }
  if (error instanceof RelayError && error.code === 'rate_limited') {
    return new RpcRefusal(ErrorCode.InvalidRequest, error.message);
  }
  return new RpcRefusal(ErrorCode.InternalError, 'The relay could not handle this elicitation');
}
