// What one 2026-07-28 `input_required` round may hold. The spec bounds neither `requestState` nor the number of
// `inputRequests` nor their keys, and the client keeps all three for the round's life: in this replica's memory,
// and for a durable call in Redis (src/rounds), from where every retry echoes the state back. A hostile or broken
// server could otherwise park megabytes per round in Redis, or post hundreds of cards from one round. A round over
// a bound fails its call before anything is recorded or anyone asked; nothing is truncated, since a cut state or
// a key cut short would be answered as another round than the one the server sent (as MCPJam's hosted
// continuations reject an oversized resume state rather than truncating it).
import type { InputRequest } from '@modelcontextprotocol/client';
import { truncate } from '../../blocks/index.js';
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
