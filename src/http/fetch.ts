// Outbound HTTP for the Slack Web API and the MCP transports: `fetch` on node:http(s) with keep-alive agents.
// Node 20's own fetch (undici, web streams) spends ~250 us of CPU on a small JSON call on the 2-core machine; this
// one ~80 us (issue #19 goals 6 and 7: a `/mcp run` makes three or four such calls). It keeps fetch's contract for
// what those callers use: method, headers, string/bytes/URLSearchParams bodies, `signal` (rejects with its reason),
// `redirect` (follow, error, manual), a streamed body for `text/event-stream`, gzip/deflate/br bodies, a null body
// for HEAD, 204, 205 and 304, `url`, and a failed exchange as TypeError "fetch failed" with the socket error as
// its cause. Anything else (a Request, a FormData, Blob or stream body, another scheme) goes to `fallback`.
import { defaultMaxListeners, getMaxListeners, setMaxListeners } from 'node:events';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BufferedResponse } from './buffered-response.js';
import { abortReason, readBody, requestOf, type OutgoingRequest } from './request.js';

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Idle keep-alive sockets are closed after 4 s, before the 5 s a Node server keeps them (keepAliveTimeout), so
 * a request is not written to a socket the server is closing.
 */
const IDLE_SOCKET_MS = 4_000;
/**
 * An exchange with no data either way for this long (ms) fails, as Node's fetch fails one after undici's
 * headersTimeout and bodyTimeout (300 s each): a server that went away without closing the connection does not
 * hold a call, or an event stream, forever.
 */
export const EXCHANGE_IDLE_MS = 300_000;
/** An exchange that went silent for its idle limit: the cause of its "fetch failed", or its stream's error. */
export class ExchangeIdleError extends Error {
  override name = 'ExchangeIdleError';
  readonly code = 'exchange_idle';
  constructor(readonly idleMs: number) {
    super(`no data for ${idleMs} ms`);
  }
}

/** Redirects followed before the call fails, as fetch does. */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);
/** Listeners a request signal may have before Node warns: undici's figure for its own fetch. */
const SHARED_SIGNAL_LISTENERS = 1_500;

export interface HttpFetchOptions {
  /** What this fetch does not send itself goes here; default Node's own fetch. */
  fallback?: Fetch;
  /** See EXCHANGE_IDLE_MS (the default). */
  idleMs?: number;
}

/** Where exchanges go: a keep-alive agent per scheme, and the idle limit of each exchange. */
interface Sockets {
  http: HttpAgent;
  https: HttpsAgent;
  idleMs: number;
}

/** A fetch on node:http(s). */
export function createHttpFetch(options: HttpFetchOptions = {}): Fetch {
  const { fallback = globalThis.fetch, idleMs = EXCHANGE_IDLE_MS } = options;
  const agentOptions = { keepAlive: true, scheduling: 'lifo' as const, timeout: IDLE_SOCKET_MS };
  const sockets = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions), idleMs };
  return async (input, init = {}) => {
    const request = input instanceof Request ? undefined : requestOf(input, init);
    if (request === undefined) return fallback(input, init);
    init.signal?.throwIfAborted();
    if (init.signal) allowManyListeners(init.signal);
    return follow(request, sockets, init.redirect ?? 'follow');
  };
}

/**
 * Each request in flight adds an abort listener to its signal, and an MCP transport gives every request it
 * sends its own one signal, so 11 elicitation answers at once made Node warn of a leak. Node's fetch (undici)
 * raises a signal's limit from the default to 1,500 for the same reason; this does as it does.
 */
function allowManyListeners(signal: AbortSignal): void {
  if (getMaxListeners(signal) === defaultMaxListeners) setMaxListeners(SHARED_SIGNAL_LISTENERS, signal);
}

/** The exchange, following redirects as fetch does (a 303, and a 301/302 POST, become GETs without a body). */
async function follow(
  first: OutgoingRequest,
  sockets: Sockets,
  redirect: NonNullable<RequestInit['redirect']>,
): Promise<Response> {
  let request = first;
  for (let hops = 0; ; hops++) {
    const res = await exchange(request, sockets);
    const location = res.headers.location;
    if (!REDIRECTS.has(res.statusCode ?? 0) || location === undefined || redirect === 'manual') {
      return responseOf(res, request);
    }
    res.resume();
    if (redirect === 'error' || hops >= MAX_REDIRECTS) {
      throw new TypeError('fetch failed', { cause: new Error(`redirect to ${location} not followed`) });
    }
    request = redirected(request, new URL(location, request.url), res.statusCode ?? 0);
  }
}

/** The request a redirect leads to: credentials stay with their origin, as fetch keeps them. */
function redirected(request: OutgoingRequest, url: URL, status: number): OutgoingRequest {
  const toGet = status === 303 ? request.method !== 'HEAD' : status <= 302 && request.method === 'POST';
  const headers = { ...request.headers };
  if (url.origin !== request.url.origin) delete headers.authorization;
  if (toGet) {
    delete headers['content-type'];
    delete headers['content-length'];
  }
  return toGet ? { ...request, url, method: 'GET', headers, body: undefined } : { ...request, url, headers };
}

/** Sends the request; resolves with the response head, rejects as fetch does. */
function exchange(request: OutgoingRequest, { idleMs, ...agents }: Sockets): Promise<IncomingMessage> {
  const { url, method, headers, body, signal } = request;
  return new Promise((resolve, reject) => {
    const [send, agent] =
      url.protocol === 'https:' ? [httpsRequest, agents.https] : [httpRequest, agents.http];
    let response: IncomingMessage | undefined;
    const req = send(url, { method, headers, agent, ...(signal && { signal }) }, (res) => {
      response = res;
      resolve(res);
    });
    req.setTimeout(idleMs, () => {
      const silent = new ExchangeIdleError(idleMs);
      response?.destroy(silent);
      req.destroy(silent);
    });
    req.on('error', (err) =>
      reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: err })),
    );
    req.end(body);
  });
}

/** The Response: a stream for server-sent events, else the whole body read first. */
async function responseOf(res: IncomingMessage, request: OutgoingRequest): Promise<Response> {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    headers.append(res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '');
  }
  const init = { status, statusText: res.statusMessage ?? '', headers };
  let response: Response;
  if (request.method === 'HEAD' || NULL_BODY.has(status)) {
    res.resume();
    response = new Response(null, init);
  } else {
    const decoded = decode(res, headers.get('content-encoding'));
    const streamed = headers.get('content-type')?.startsWith('text/event-stream') === true;
    response = streamed
      ? new Response(streamOf(decoded, request.signal), init)
      : new BufferedResponse(await readBody(decoded, request.signal), init);
  }
  // A constructed Response has no URL; callers read it (the WebClient does for some methods).
  Object.defineProperty(response, 'url', { value: request.url.href });
  return response;
}

/** A streamed body as a web stream; aborting the signal errors it with the signal's reason. */
function streamOf(body: Readable, signal: AbortSignal | undefined): ReadableStream {
  if (signal !== undefined) {
    const onAbort = () => body.destroy(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    body.once('close', () => signal.removeEventListener('abort', onAbort));
  }
  return Readable.toWeb(body);
}

/** The body decompressed by its content-encoding, as fetch does; unknown encodings are passed on as they are. */
function decode(res: IncomingMessage, encoding: string | null): Readable {
  const coding = encoding?.trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? createGunzip()
      : coding === 'deflate'
        ? createInflate()
        : coding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/** The process's outbound fetch. */
export const httpFetch: Fetch = createHttpFetch();
