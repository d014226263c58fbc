// A fetch call's arguments as node:http sends them (fetch.ts), and a response body read whole.
import type { Readable } from 'node:stream';

export interface OutgoingRequest {
  url: URL;
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer | undefined;
  signal: AbortSignal | undefined;
}

/** Methods fetch upper-cases (the Fetch standard's "normalize"); others are sent as given. */
const NORMALIZED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/** The body's bytes and the content-type fetch gives it by default; `undefined` for a kind fetch.ts leaves alone. */
function bodyOf(body: RequestInit['body']): { bytes: Buffer | undefined; type?: string } | undefined {
  if (body === undefined || body === null) return { bytes: undefined };
  if (typeof body === 'string') return { bytes: Buffer.from(body), type: 'text/plain;charset=UTF-8' };
  if (body instanceof URLSearchParams) {
    return { bytes: Buffer.from(body.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  }
  if (body instanceof ArrayBuffer) return { bytes: Buffer.from(body) };
  if (ArrayBuffer.isView(body)) return { bytes: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  return undefined;
}

/**
 * The request for node:http, or `undefined` when fetch.ts should hand the call to its fallback (another scheme,
 * a body it does not send itself). A GET or HEAD with a body is refused as fetch refuses it.
 */
export function requestOf(input: string | URL, init: RequestInit): OutgoingRequest | undefined {
  const url = new URL(input);
  const body = bodyOf(init.body);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || body === undefined) return undefined;
  const upper = (init.method ?? 'GET').toUpperCase();
  const method = NORMALIZED.has(upper) ? upper : (init.method ?? 'GET');
  if ((method === 'GET' || method === 'HEAD') && body.bytes !== undefined) {
    throw new TypeError('Request with GET/HEAD method cannot have body.');
  }
  const headers: Record<string, string> = { accept: '*/*', 'user-agent': 'node' };
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  if (body.type !== undefined && headers['content-type'] === undefined) headers['content-type'] = body.type;
  if (body.bytes !== undefined || ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase())) {
    headers['content-length'] = String(body.bytes?.length ?? 0);
  }
  return { url, method, headers, body: body.bytes, signal: init.signal ?? undefined };
}

/** Why the signal aborted, as fetch rejects with it: its reason, or an AbortError when that is no Error. */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new DOMException('This operation was aborted', 'AbortError');
}

/**
 * The whole body. A failed read rejects as fetch's does ("fetch failed", the socket error as its cause); an
 * aborted one with the signal's reason.
 */
export function readBody(body: Readable, signal: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const settle = (settled: () => void) => {
      signal?.removeEventListener('abort', onAbort);
      settled();
    };
    const onAbort = () => {
      if (signal) settle(() => reject(abortReason(signal)));
      body.destroy();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.on('error', (err) => settle(() => reject(new TypeError('fetch failed', { cause: err }))));
    body.on('end', () =>
      settle(() => resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks))),
    );
  });
}
