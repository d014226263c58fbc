// Reading a request and writing a response the API's way: JSON bodies up to 1 MB (413 beyond, 415 for another
// content type), errors as {"error":{"code","message"}}.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.js';

/** Largest request body, in bytes: 1 MB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Bytes of an oversized body read (and dropped) before the 413 goes out, so the client gets the answer rather
 * than a reset while it is still sending; past this the connection is cut. 16 MB.
 */
const DISCARD_MAX_BYTES = 16 * MAX_BODY_BYTES;

/** The body parsed as JSON; ApiError for a wrong content type (415), a body over 1 MB (413) or bad JSON (400). */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    throw new ApiError('unsupported_media_type', 'Send the body as application/json.');
  }
  const text = await readText(req);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('invalid_json', 'The body is not valid JSON.');
  }
}

async function readText(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > DISCARD_MAX_BYTES) req.destroy();
    if (size <= MAX_BODY_BYTES) chunks.push(bytes);
  }
  if (size > MAX_BODY_BYTES || declared > MAX_BODY_BYTES) {
    throw new ApiError('payload_too_large', `The body is over ${MAX_BODY_BYTES} bytes.`);
  }
  return Buffer.concat(chunks).toString('utf8');
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
  // RFC 9110 §15.5.6: a 405 names the methods the path does take.
  if (error.allow !== undefined) headers.allow = error.allow.join(', ');
  sendJson(res, error.status, { error: { code: error.code, message: error.message } }, headers);
}
