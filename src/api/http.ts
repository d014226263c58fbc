// Reading a request and writing a response the API's way: JSON bodies up to 1 MB (413 beyond, 415 for another
// content type), errors as {"error":{"code","message"}}.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.js';

/** Largest request body, in bytes: 1 MB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Bytes of a body read and dropped after its refusal went out (a 413 or 415), for a client that keeps sending
 * after it; past this the connection is cut. 16 MB.
 */
const DISCARD_MAX_BYTES = 16 * MAX_BODY_BYTES;

/** The body's bytes as UTF-8, refusing any that are not (RFC 8259 §8.1); a leading BOM is dropped (§8.1: MAY). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body parsed as JSON; ApiError for a wrong content type (415), a body over 1 MB (413), bytes that are not
 * UTF-8 or bad JSON (400). Bytes that are not UTF-8 are refused rather than read as U+FFFD: the card would show
 * the person a message other than the one sent.
 */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    discard(req, 0);
    throw new ApiError('unsupported_media_type', 'Send the body as application/json.');
  }
  const bytes = await readBytes(req);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (cause) {
    throw new ApiError('invalid_json', 'The body is not valid UTF-8, which JSON must be.', { cause });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('invalid_json', 'The body is not valid JSON.');
  }
}

/**
 * The body's bytes. Past MAX_BODY_BYTES (as declared by Content-Length, or as read), it rejects at once with the
 * 413, which goes out while the client still sends (curl and fetch stop sending and read it), and the rest is
 * dropped: waiting for the whole body left a client sending over DISCARD_MAX_BYTES with a reset, not the 413.
 */
function readBytes(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = (read: number): void => {
      discard(req, read);
      reject(new ApiError('payload_too_large', `The body is over ${MAX_BODY_BYTES} bytes.`));
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
  // An error of a body nobody reads (the client gone) is nothing to report.
  req.on('error', () => undefined);
  req.resume();
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  const headers: Record<string, string> = {};
  if (error.retryAfterSec !== undefined) headers['retry-after'] = String(error.retryAfterSec);
  if (error.code === 'unauthorized') headers['www-authenticate'] = 'Bearer';
  // The rest of an oversized body is not read: the connection cannot carry another request after it.
  if (error.code === 'payload_too_large') headers.connection = 'close';
  // RFC 9110 §15.5.6: a 405 names the methods the path does take.
  if (error.allow !== undefined) headers.allow = error.allow.join(', ');
  sendJson(res, error.status, { error: { code: error.code, message: error.message } }, headers);
}
