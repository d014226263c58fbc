// The body of a POST /mcp, read before the SDK's transport sees it (the endpoint must know a call's id and a
// cancel's target first), and refused as the SDK's own Streamable HTTP server refuses one: a JSON-RPC error
// object with id null, -32000 with 413 for a body over the limit, -32700 (parse error) with 400 for bytes that
// are not UTF-8 or not JSON. Bytes that are not UTF-8 are refused rather than read as U+FFFD: the person in
// Slack would be shown a message other than the one sent.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest request body, in bytes (the API's limit). */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Bytes of a body read and dropped after its 413 went out, for a host that keeps sending after it; past this
 * the connection is cut. 16 MB, as the API's.
 */
const DISCARD_MAX_BYTES = 16 * MAX_BODY_BYTES;

/** UTF-8 or nothing (RFC 8259 §8.1); a leading byte order mark is dropped (§8.1: MAY), as the SDK's reader does. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

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
  const bytes = await readBytes(req);
  if (bytes === undefined) {
    // The SDK's words (requestBodyTooLargeMessage), so a host sees what any SDK server would say.
    const message = `Payload Too Large: Request body must not exceed ${MAX_BODY_BYTES} bytes`;
    return { status: 413, code: TRANSPORT_ERROR, message };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
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

/**
 * The body's bytes, or undefined once it is over MAX_BODY_BYTES (as declared by Content-Length, or as read): the
 * 413 then goes out while the host still sends, and the rest is dropped. Breaking off the read instead would
 * destroy the request, and the host would see its connection reset rather than the 413.
 */
function readBytes(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const tooLarge = (read: number): void => {
      discard(req, read);
      resolve(undefined);
    };
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return tooLarge(0);
    let size = 0;
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      stop();
      tooLarge(size);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    const stop = (): void => void req.off('data', onData).off('end', onEnd).off('error', onError);
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/** Reads and drops the rest of a body that will not be used; past DISCARD_MAX_BYTES in all, cuts the connection. */
function discard(req: IncomingMessage, alreadyRead: number): void {
  let size = alreadyRead;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > DISCARD_MAX_BYTES) req.destroy();
  });
  // An error of a body nobody reads (the host gone) is nothing to report.
  req.on('error', () => undefined);
  req.resume();
}
