// Reading an inbound request's body for the JSON endpoints (the API's /api/v1, the MCP endpoint's POST /mcp):
// at most 1 MB, refused as soon as it is known to be larger (the answer then goes out while the client still
// sends, and the rest is dropped), and decoded strictly as UTF-8.
import type { IncomingMessage } from 'node:http';

/** Largest request body, in bytes: 1 MB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Bytes of a body read and dropped after its refusal went out, for a client that keeps sending after it; past
 * this the connection is cut. 16 MB.
 */
const DISCARD_MAX_BYTES = 16 * MAX_BODY_BYTES;

/** UTF-8 or nothing (RFC 8259 §8.1); a leading byte order mark is dropped (§8.1: MAY). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text, undefined when its bytes are not UTF-8: refused rather than read as U+FFFD, which would
 * show the person in Slack a message other than the one sent.
 */
export function utf8Text(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The body's bytes, or 'too_large' once it is over MAX_BODY_BYTES (as declared by Content-Length, or as read):
 * the refusal then goes out while the client still sends (curl and fetch stop sending and read it), and the rest
 * is dropped. Waiting for the whole body instead left a client sending over DISCARD_MAX_BYTES with a reset.
 */
export function readBodyBytes(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const tooLarge = (read: number): void => {
      discardBody(req, read);
      resolve('too_large');
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
export function discardBody(req: IncomingMessage, alreadyRead = 0): void {
  let size = alreadyRead;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > DISCARD_MAX_BYTES) req.destroy();
  });
  // An error of a body nobody reads (the client gone) is nothing to report.
  req.on('error', () => undefined);
  req.resume();
}
