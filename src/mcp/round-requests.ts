// The requests of one 2026-07-28 `input_required` round (rounds.ts), parsed once as the round comes: the round
// keeps each as parsed (round-bounds.ts keptRequest) and asks it as parsed (questions.ts, round-form.ts). A URL
// request names no `elicitationId` in that revision, and the id the hub asks it under (call.ts roundLinkId) is
// made from the round's continuation id, which exists only once the round is recorded: the parse leaves it out
// (ParsedElicitation), and it is given when the request is asked (SessionQuestions.answerInput).
// A request the bot cannot ask fails the call naming the request and why (notAsked).
import type { InputRequest } from '@modelcontextprotocol/client';
import { truncate } from '../../blocks/index.js';
import { parseRequest, RpcRefusal, type FormElicitation, type ParsedElicitation } from './elicitation.js';
import { KEY_SHOWN_MAX } from './round-bounds.js';
import { McpClientError } from './types.js';

/** Which round of which tool: how a refused request is named to the person. */
export interface RoundOf {
  round: number;
  tool: string;
}

/** Each of the round's requests parsed, by key, in the order sent; throws as checkRequest does. */
export function parseRoundRequests(
  requests: Record<string, InputRequest>,
  at: RoundOf,
  server: string,
): [string, ParsedElicitation][] {
  return Object.entries(requests).map(([key, request]) => [key, checkRequest(key, request, at, server)]);
}

/** The request parsed; throws, as notAsked words it, when it is not one the bot can ask (its kind, its params). */
function checkRequest(key: string, request: InputRequest, at: RoundOf, server: string): ParsedElicitation {
  try {
    return parseRequest(onlyElicitation(server, request));
  } catch (error) {
    throw notAsked(error, [key], at, server);
  }
}

/**
 * A request refused before or while being asked (invalid params, a question limit: RpcRefusal, which a 2025
 * server gets as its request's JSON-RPC error) fails the call saying which request and why. A 2026 round has no
 * error per request; passed on as it is, the refusal would read as a JSON-RPC error of the server's own
 * ("failed (JSON-RPC -32602)"), which it never sent, and its reason would be lost.
 */
export function notAsked(error: unknown, keys: string[], at: RoundOf, server: string): unknown {
  if (!(error instanceof RpcRefusal)) return error;
  const named = keys.map((key) => JSON.stringify(truncate(key, KEY_SHOWN_MAX)));
  const which = `${named.length === 1 ? 'request' : 'requests'} ${named.join(', ')}`;
  return new McpClientError(
    'tool_failed',
    server,
    `${server} asked for input that could not be asked (${which} of round ${at.round} of ${at.tool}): ${error.message}`,
    { cause: error },
  );
}

/** A form-mode entry (a missing `mode` is form mode): one that can share a form. */
export function isForm(entry: [string, ParsedElicitation]): entry is [string, FormElicitation] {
  return entry[1].mode === 'form';
}

/** Refuses an entry that is not a question (sampling, roots): this client never declares those. */
function onlyElicitation(server: string, request: InputRequest): unknown {
  if (request.method === 'elicitation/create') return request.params;
  throw new McpClientError(
    'tool_failed',
    server,
    `${server} asked for ${request.method}, which this client does not offer`,
  );
}
