// What one 2026-07-28 `input_required` round may hold. The spec bounds neither `requestState` nor the number of
// `inputRequests` nor their keys, and the client keeps all three for the round's life: in this replica's memory,
// and for a durable call in Redis (src/rounds), from where every retry echoes the state back. A hostile or broken
// server could otherwise park megabytes per round in Redis, or post hundreds of cards from one round. A round over
// a bound fails its call before anything is recorded or anyone asked; nothing is truncated, since a cut state or
// a key cut short would be answered as another round than the one the server sent (as MCPJam's hosted
// continuations reject an oversized resume state rather than truncating it).
//
// What a round keeps of each request is not the request as sent (its params may carry megabytes the relay never
// reads: `_meta`, unknown fields, a message longer than anyone is shown) but the request as the relay reads it
// (keptRequest); those kept requests together are bounded too (ROUND_REQUESTS_MAX_BYTES).
import type { InputRequest } from '@modelcontextprotocol/client';
import { truncate } from '../../blocks/index.js';
import type { ParsedElicitation } from './elicitation.js';
import { McpClientError } from './types.js';

/**
 * The largest `requestState` kept, in UTF-8 bytes (512 KiB). The SDK's own codec mints a signed token of a few
 * hundred bytes, and MCPJam caps its whole hosted continuation (state, params and all) at 128 KiB; this leaves
 * room for a server that carries a draft in its state (a 400 KB state is tested to survive a take-over), while a
 * thousand open rounds still hold at most 512 MB of Redis rather than gigabytes.
 */
export const REQUEST_STATE_MAX_BYTES = 512 * 1024;
/**
 * The most `inputRequests` entries in one round. A real round asks a handful of questions; each entry can be a
 * card of its own, and a durable round keeps every entry in Redis.
 */
export const ROUND_REQUESTS_MAX = 50;
/** The longest `inputRequests` key, in UTF-16 code units: keys are identifiers ("confirm", a UUID). */
export const REQUEST_KEY_MAX = 256;
/** The most of a request key a failure shows, in characters. */
export const KEY_SHOWN_MAX = 60;
/**
 * The most a round's requests may take as kept (keptRequest), in UTF-8 bytes of their JSON (512 KiB): with the
 * requestState's 512 KiB, a round holds at most 1 MiB, a thousand open rounds 1 GB of Redis. A real round's
 * forms take a few kilobytes; each message is kept cut to what a person can be shown (27,000 characters, up to
 * 81 kB in UTF-8), so fifty long messages alone could otherwise keep 4 MB.
 */
export const ROUND_REQUESTS_MAX_BYTES = 512 * 1024;

/**
 * An `inputRequests` entry as a round keeps it: the `elicitation/create` params the relay reads (a form's message
 * and requestedSchema, a URL request's message, url and elicitationId if it had one), the message cut as the
 * question shows it (`parsed`, the entry's parseRequest). Still a request a replica of the previous release
 * reads (its recorder parses `params` as sent), so a rolling upgrade may split a round's answers on either.
 */
export interface KeptRequest {
  method: 'elicitation/create';
  params: Record<string, unknown>;
}

export function keptRequest(parsed: ParsedElicitation): KeptRequest {
  const method = 'elicitation/create';
  const { message } = parsed;
  if (parsed.mode === 'form') {
    return { method, params: { mode: 'form', message, requestedSchema: parsed.requestedSchema } };
  }
  // A 2026 URL request names no elicitationId; the one it is asked under is the hub's, not the server's to keep.
  const id = parsed.elicitationId === undefined ? {} : { elicitationId: parsed.elicitationId };
  return { method, params: { mode: 'url', message, url: parsed.url, ...id } };
}

/** Throws McpClientError 'tool_failed' when the kept requests take over ROUND_REQUESTS_MAX_BYTES. */
export function checkKeptSize(kept: [string, KeptRequest][], at: RoundAt): void {
  const sizes = kept.map(([key, request]) => ({ key, request, bytes: jsonBytes(request) }));
  const total = sizes.reduce((sum, size) => sum + size.bytes, 0);
  if (total <= ROUND_REQUESTS_MAX_BYTES) return;
  const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const [field, fieldBytes] = largestField(largest.request.params);
  const path = `inputRequests[${JSON.stringify(truncate(largest.key, KEY_SHOWN_MAX))}].params.${field}`;
  const { server, tool, round } = at;
  throw refused(
    server,
    `${server} asked round ${round} of ${tool} for requests that take ${total} bytes as this client keeps them, ` +
      `over the limit of ${ROUND_REQUESTS_MAX_BYTES} bytes (${ROUND_REQUESTS_MAX_BYTES / 1024} KiB); ` +
      `the largest part is ${path} (${fieldBytes} bytes)`,
  );
}

/** The params' field whose JSON takes the most bytes, and how many. */
function largestField(params: Record<string, unknown>): [string, number] {
  const fields = Object.entries(params).map(([name, value]): [string, number] => [name, jsonBytes(value)]);
  return fields.reduce((a, b) => (b[1] > a[1] ? b : a), ['params', 0]);
}

/** UTF-8 bytes of the value's JSON, as the round store writes it. */
const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** Which round of which tool on which server: how a refused round is named to the person. */
export interface RoundAt {
  server: string;
  tool: string;
  round: number;
}

/** Throws McpClientError 'tool_failed' when the round is over one of the bounds above. */
export function checkRoundBounds(
  result: { inputRequests?: Record<string, InputRequest>; requestState?: string },
  at: RoundAt,
): void {
  const { server, tool, round } = at;
  const which = `round ${round} of ${tool}`;
  const state = result.requestState;
  const bytes = state === undefined ? 0 : Buffer.byteLength(state, 'utf8');
  if (bytes > REQUEST_STATE_MAX_BYTES) {
    throw refused(
      server,
      `${server} sent ${which} with a requestState of ${bytes} bytes, over the limit of ` +
        `${REQUEST_STATE_MAX_BYTES} bytes (${REQUEST_STATE_MAX_BYTES / 1024} KiB) this client keeps`,
    );
  }
  const keys = Object.keys(result.inputRequests ?? {});
  if (keys.length > ROUND_REQUESTS_MAX) {
    throw refused(
      server,
      `${server} asked ${keys.length} requests in ${which}, over the limit of ${ROUND_REQUESTS_MAX} in one round`,
    );
  }
  const long = keys.find((key) => key.length > REQUEST_KEY_MAX);
  if (long !== undefined) {
    throw refused(
      server,
      `${server} asked ${which} under a request key of ${long.length} characters ` +
        `(${JSON.stringify(truncate(long, KEY_SHOWN_MAX))}), over the limit of ${REQUEST_KEY_MAX}`,
    );
  }
}

function refused(server: string, message: string): McpClientError {
  return new McpClientError('tool_failed', server, message);
}
