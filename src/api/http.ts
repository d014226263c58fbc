// Reading a request and writing a response the API's way: JSON bodies up to 1 MB (413 beyond, 415 for another
// content type), errors as {"error":{"code","message"}}.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { discardBody, MAX_BODY_BYTES, readBodyBytes, utf8Text } from '../http/index.js';
import { ApiError } from './errors.js';

/**
 * The body parsed as JSON; ApiError for a wrong content type (415), a body over 1 MB (413), bytes that are not
 * UTF-8 or bad JSON (400).
 */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    discardBody(req);
    throw new ApiError('unsupported_media_type', 'Send the body as application/json.');
  }
  const bytes = await readBodyBytes(req);
  if (bytes === 'too_large') {
    throw new ApiError('payload_too_large', `The body is over ${MAX_BODY_BYTES} bytes.`);
  }
  const text = utf8Text(bytes);
  if (text === undefined)
    throw new ApiError('invalid_json', 'The body is not valid UTF-8, which JSON must be.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('invalid_json', 'The body is not valid JSON.');
  }
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
