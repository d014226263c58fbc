// The body of a POST /mcp, read before the SDK's transport sees it (the endpoint must know a call's id and a
// cancel's target first), and refused as the SDK's own Streamable HTTP server refuses one: a JSON-RPC error
// object with id null, -32000 with 413 for a body over the limit, -32700 (parse error) with 400 for bytes that
// are not UTF-8 or not JSON. Bytes that are not UTF-8 are refused rather than read as U+FFFD: the person in
// Slack would be shown a message other than the one sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES, readBodyBytes, utf8Text } from '../http/index.js';

/** A body the endpoint answers itself: the HTTP status and the JSON-RPC error. */
export interface BodyRefusal {
  status: 400 | 413;
  code: number;
  message: string;
}

/** JSON-RPC's parse error. */
const PARSE_ERROR = -32700;
/** The SDK's code for a transport-level refusal (its 413, 405, 406, 415). */
const TRANSPORT_ERROR = -32000;

/** The body parsed as JSON, or the refusal to answer with. */
export async function readBody(req: IncomingMessage): Promise<{ parsed: unknown } | BodyRefusal> {
  const bytes = await readBodyBytes(req);
  if (bytes === 'too_large') {
    // The SDK's words (requestBodyTooLargeMessage), so a host sees what any SDK server would say.
    const message = `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`;
    return { status: 413, code: TRANSPORT_ERROR, message };
  }
  const text = utf8Text(bytes);
  if (text === undefined) {
    return { status: 400, code: PARSE_ERROR, message: 'Parse error: the body is not valid UTF-8' };
  }
  try {
    return { parsed: JSON.parse(text) as unknown };
  } catch {
    return { status: 400, code: PARSE_ERROR, message: 'Parse error: Invalid JSON' };
  }
}

/**
 * Answers a refused body. After a 413 the rest of the body is not read, so the connection cannot carry another
 * request: it is closed.
 */
export function refuseBody(res: ServerResponse, refusal: BodyRefusal): void {
  if (res.headersSent || res.destroyed) return;
  const error = { code: refusal.code, message: refusal.message };
  res.writeHead(refusal.status, {
    'content-type': 'application/json',
    ...(refusal.status === 413 ? { connection: 'close' } : {}),
  });
  res.end(JSON.stringify({ jsonrpc: '2.0', error, id: null }));
}
