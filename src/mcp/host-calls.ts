// The tools/calls of agent hosts running on this replica, by the call's key: the API client, the MCP session
// the endpoint named at the host's initialize (Mcp-Session-Id: the endpoint keeps nothing for it, it only
// scopes the host's JSON-RPC ids, which every host starts again at 0) and the JSON-RPC id. A host's
// `notifications/cancelled` names its call by that key. A host that sends no session id shares its ids with
// every such host of the same client: when two calls in flight have one key, a cancel naming it could be
// either's, so it cancels neither (each still ends when its own HTTP request does).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The header a Streamable HTTP server names a session by; the host sends it back on every later request. */
export const SESSION_HEADER = 'mcp-session-id';

/** A call's id within its host's session: what a cancel names, and what a question is found by elsewhere. */
export function callIdOf(session: string | undefined, requestId: string | number): string {
  return JSON.stringify([session ?? '', String(requestId)]);
}

/**
 * The host's session: named anew at its initialize (128 random bits, on the response's header, as the spec
 * asks of a session id), else the one the request carries, if any.
 */
export function hostSession(req: IncomingMessage, res: ServerResponse, message: unknown): string | undefined {
  if (isObject(message) && message.method === 'initialize') {
    const session = randomBytes(16).toString('base64url');
    res.setHeader(SESSION_HEADER, session);
    return session;
  }
  const sent = req.headers[SESSION_HEADER];
  return typeof sent === 'string' && sent !== '' ? sent : undefined;
}

/**
 * The call a body's tools/call names, when it is the body's one request: sent alone, or a batch's only request
 * (revision 2025-03-26 allowed batches, and the SDK's transport takes them under any revision). The requests of a
 * larger batch share one response, which cancelling one of them by closing it would end for all: none is named
 * here, so a cancel takes the path of a call running on another replica.
 */
export function namedCall(body: unknown, session: string | undefined): string | undefined {
  const requests = messagesOf(body).filter(
    (message) => isObject(message) && 'id' in message && 'method' in message,
  );
  const [request] = requests;
  if (requests.length !== 1 || !isObject(request) || request.method !== 'tools/call') return undefined;
  return idOf(request.id, session);
}

/** The calls a body's `notifications/cancelled` name: the one sent alone, or each of a batch's. */
export function cancelledCalls(body: unknown, session: string | undefined): string[] {
  return messagesOf(body).flatMap((message) => {
    if (!isObject(message) || message.method !== 'notifications/cancelled' || !isObject(message.params))
      return [];
    const callId = idOf(message.params.requestId, session);
    return callId === undefined ? [] : [callId];
  });
}

const messagesOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

const idOf = (id: unknown, session: string | undefined): string | undefined =>
  typeof id === 'string' || typeof id === 'number' ? callIdOf(session, id) : undefined;

/** Calls in flight by key (`client` and call id); several under one key make it ambiguous. */
export class HostCalls<Call> {
  private readonly running = new Map<string, Set<Call>>();

  add(client: string, callId: string, call: Call): void {
    const key = keyOf(client, callId);
    this.running.set(key, (this.running.get(key) ?? new Set()).add(call));
  }

  remove(client: string, callId: string, call: Call): void {
    const key = keyOf(client, callId);
    const calls = this.running.get(key);
    calls?.delete(call);
    if (calls?.size === 0) this.running.delete(key);
  }

  /** The one call running under the key, 'ambiguous' when several are, undefined when none is. */
  find(client: string, callId: string): Call | 'ambiguous' | undefined {
    const calls = this.running.get(keyOf(client, callId));
    if (calls === undefined) return undefined;
    return calls.size === 1 ? [...calls][0] : 'ambiguous';
  }
}

const keyOf = (client: string, callId: string): string => `${client}\u0000${callId}`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
