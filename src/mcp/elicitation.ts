// Translation between the wire `elicitation/create` and the relay's IncomingElicitation / Outcome.
import { randomUUID } from 'node:crypto';
import {
  ProtocolError,
  ProtocolErrorCode,
  type ClientContext,
  type ElicitResult,
  type JSONRPCRequest,
  type Result,
} from '@modelcontextprotocol/client';
import { ElicitRequestURLParamsSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';
import {
  MESSAGE_SECTIONS_MAX,
  parseFormSchema,
  SchemaError,
  SECTION_TEXT_MAX,
  truncate,
  type FieldSpec,
} from '../../blocks/index.js';
import { RelayError } from '../relay/errors.js';
import type { Content, Outcome, Question } from '../relay/types.js';
import { checkFormParams } from './form-params.js';
import { RawResultClient } from './raw-results.js';
import type { IncomingElicitation } from './types.js';

/** The JSON-RPC codes the client answers an elicitation with when it does not answer it. */
export type RefusalCode =
  ProtocolErrorCode.InvalidParams | ProtocolErrorCode.InvalidRequest | ProtocolErrorCode.InternalError;

/** A JSON-RPC error the client sends to the server instead of an elicitation result. */
export class RpcRefusal extends ProtocolError {
  override readonly name = 'RpcRefusal';
  constructor(code: RefusalCode, reason: string) {
    super(code, reason);
  }
}

interface Issue {
  path: PropertyKey[];
  message: string;
}

const PROPERTY_HINT = 'fields must be a flat string, number, integer, boolean or enum schema';

/**
 * The most of a server's message a person can ever see: the form shows it in at most MESSAGE_SECTIONS_MAX (9)
 * sections of SECTION_TEXT_MAX characters, the card and App Home less. Nothing in the
 * spec bounds a message, and drawing a card or form walks all of it (about 1 s of CPU per MB, for each card, form
 * and update, with the event loop held from every other person), so the question keeps this much (27,000).
 */
const SHOWN_MESSAGE_MAX = MESSAGE_SECTIONS_MAX * SECTION_TEXT_MAX;

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
 * A URL-mode `elicitation/create` (revisions 2025-06-18 and 2025-11-25) must name its elicitation: only a 2026
 * round's entries have no `elicitationId` (parseElicitation then makes one up). Throws RpcRefusal -32602.
 */
export function requireElicitationId(params: unknown): void {
  if (!isRecord(params) || params['mode'] !== 'url' || params['elicitationId'] !== undefined) return;
  throw new RpcRefusal(
    ProtocolErrorCode.InvalidParams,
    'Invalid elicitation request: elicitationId: required in URL mode',
  );
}

/** A form-mode request as the relay sees it. */
export type FormElicitation = Extract<IncomingElicitation, { mode: 'form' }>;

/**
 * A request as parsed (parseRequest): a URL request's `elicitationId` is absent when the server named none, as a
 * 2026-07-28 round's never does; the id such a request is asked under is the hub's (parseElicitation, or for a
 * round's request questions.ts, once its round's continuation id is known).
 */
export type ParsedElicitation =
  | FormElicitation
  | (Omit<Extract<IncomingElicitation, { mode: 'url' }>, 'elicitationId'> & { elicitationId?: string });

/**
 * Validates raw `elicitation/create` params exactly as the SDK would (same schemas, chosen by `mode`),
 * and keeps the raw `requestedSchema`: the SDK's parsed copy drops keywords it does not model
 * (`pattern`, `$schema`, unknown keys) that the relay's validator can still use.
 * Throws RpcRefusal -32602 with a short reason when the request is invalid. A URL request that names no
 * `elicitationId` gets "mrtr:" and a random UUID (see IncomingElicitation).
 */
export function parseElicitation(params: unknown): IncomingElicitation {
  const parsed = parseRequest(params);
  if (parsed.mode === 'form') return parsed;
  return { ...parsed, elicitationId: parsed.elicitationId ?? `mrtr:${randomUUID()}` };
}

/** parseElicitation, leaving out the `elicitationId` a URL request did not name. */
export function parseRequest(params: unknown): ParsedElicitation {
  if (typeof params !== 'object' || params === null) {
    throw new RpcRefusal(
      ProtocolErrorCode.InvalidParams,
      'Invalid elicitation request: params must be an object',
    );
  }
  const raw = params as Record<string, unknown>;
  if (raw['mode'] === 'url') {
    // Revision 2026-07-28 dropped `elicitationId`; the SDK has already checked the request for its era.
    const modern = raw['elicitationId'] === undefined;
    const parsed = ElicitRequestURLParamsSchema.safeParse(modern ? { ...raw, elicitationId: '-' } : raw);
    if (!parsed.success)
      throw new RpcRefusal(ProtocolErrorCode.InvalidParams, describeIssue(parsed.error.issues[0]));
    const { message, url } = parsed.data;
    const named = modern ? {} : { elicitationId: parsed.data.elicitationId };
    return { mode: 'url', message: truncate(message, SHOWN_MESSAGE_MAX), url, ...named };
  }
  // A missing `mode` is form mode (revision 2025-06-18 has no `mode` at all).
  const checked = checkFormParams(raw);
  if (!checked.ok) throw new RpcRefusal(ProtocolErrorCode.InvalidParams, describeIssue(checked.issue));
  return {
    mode: 'form',
    message: truncate(checked.message, SHOWN_MESSAGE_MAX),
    requestedSchema: raw['requestedSchema'],
  };
}

/**
 * URL mode's accept carries no content (the person consented to open the link; the data goes there). A form's
 * accepted content gets the schema's defaults for the properties the person left out (the `applyDefaults`
 * the client declares), each set as an own property so that every name a schema can hold, `__proto__`
 * included, reaches the server. Only defaults valid for their field are filled (see withDefaults).
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

/**
 * What the MCP server that asked `question` received for `outcome` (toElicitResult in the question's mode, with
 * its schema's defaults); for a question asked through the API, what such a server would have received.
 */
export function answerAsSent(
  question: Pick<Question, 'url' | 'requestedSchema'>,
  outcome: Outcome,
): ElicitResult {
  return toElicitResult(outcome, question.url ? 'url' : 'form', question.requestedSchema);
}

/**
 * A copy of `content` with the `default` of each absent property (flat schemas only, as elicitation allows),
 * taken from the form the person was shown: its parse keeps only the defaults that meet their own field's rules
 * (type, option list, bounds, length, pattern, format) and ignores the others, so what is filled is what the form
 * would have pre-filled and the content still meets the requested schema. A default the server got wrong is left
 * out, as the form left it empty, rather than sent back as if the person had chosen it.
 */
function withDefaults(requestedSchema: unknown, content: Content): Content {
  const filled: Content = {};
  for (const [name, value] of Object.entries(content)) setOwn(filled, name, value);
  for (const field of formFields(requestedSchema)) {
    const value = field.default;
    // A copy: the parsed form is frozen and shared by every answer to this schema.
    if (value !== undefined && !Object.hasOwn(filled, field.name))
      setOwn(filled, field.name, Array.isArray(value) ? [...value] : value);
  }
  return filled;
}

/** The fields of the form a schema is shown as; none when the form engine refuses it (nothing vouches for its defaults). */
function formFields(requestedSchema: unknown): readonly FieldSpec[] {
  try {
    return parseFormSchema(requestedSchema).fields;
  } catch (error) {
    // An accepted form was drawn from this schema, so it parsed then; a refusal here only means no defaults.
    if (error instanceof SchemaError) return [];
    throw error;
  }
}

/** `target[name] = value` would set the prototype for `__proto__`; defining the property never does. */
function setOwn(target: Content, name: string, value: Content[string]): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Handler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;

/** The raw params of `elicitation/create`, untouched (see RelayClient). */
export const RAW_ELICIT_PARAMS = { params: z.unknown() };

/**
 * The SDK's Client, minus its wrapper around the `elicitation/create` handler. That wrapper validates the
 * request with its own schemas (a multi-kilobyte union dump for an unsupported property, where
 * parseElicitation names it in one line) and re-parses the handler's result, whose zod record copies the
 * content by assignment, so a property named `__proto__` became the copy's prototype and never reached the
 * server. What the wrapper also does is done by the session instead: the request is validated by
 * parseElicitation, both modes are declared whenever a handler exists, and the result is built by
 * toElicitResult (defaults included). Register the handler with RAW_ELICIT_PARAMS so it gets raw params.
 * Its requests whose result the bot reads raw (a lenient tools/list) are RawResultClient's (raw-results.ts).
 */
export class RelayClient extends RawResultClient {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    if (method !== 'elicitation/create') return super._wrapHandler(method, handler);
    return async (request, ctx) => {
      parseElicitation(request.params);
      return handler(request, ctx);
    };
  }
}

/**
 * The JSON-RPC error sent to the server when the sink fails. Only an invalid schema explains itself
 * (its message was written for the server's author); anything else is a generic internal error so
 * that no detail of the bot leaks to the server.
 */
export function toRpcError(error: unknown): RpcRefusal {
  if (error instanceof RelayError && (error.code === 'invalid_schema' || error.code === 'invalid_url')) {
    return new RpcRefusal(ProtocolErrorCode.InvalidParams, error.message);
  }
  if (error instanceof RelayError && error.code === 'rate_limited') {
    return new RpcRefusal(ProtocolErrorCode.InvalidRequest, error.message);
  }
  return new RpcRefusal(ProtocolErrorCode.InternalError, 'The relay could not handle this elicitation');
}
