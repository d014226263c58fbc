// Translation between the wire `elicitation/create` and the relay's IncomingElicitation / Outcome.
import { z } from 'zod';
import {
  ElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema,
  ErrorCode,
  McpError,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { RelayError } from '../relay/errors.js';
import type { Outcome } from '../relay/types.js';
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

/** URL mode's accept carries no content (the person consented to open the link; the data goes there). */
export function toElicitResult(outcome: Outcome, mode: IncomingElicitation['mode'] = 'form'): ElicitResult {
  if (outcome.action !== 'accept') return { action: outcome.action };
  return mode === 'url' ? { action: 'accept' } : { action: 'accept', content: outcome.content };
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
