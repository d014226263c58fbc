// Default transports built from a server spec: a stdio child process, a Streamable HTTP endpoint, or a
// legacy HTTP+SSE endpoint (revision 2024-11-05), which is also the fallback for a Streamable HTTP URL
// whose server refuses the initialize POST, as the spec's backwards-compatibility section describes.
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import {
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type JSONRPCMessage,
  type OAuthClientProvider,
  type StreamableHTTPReconnectionOptions,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { httpFetch } from '../http/index.js';
import { rediscoverOnRefusedToken } from './auth/rediscover.js';
import { scopeChallengeAsForbidden } from './auth/scope-challenge.js';
import { SignInPauses } from './handshake.js';
import { McpClientError, type McpLogger, type McpServerSpec, type McpTransport } from './types.js';

/**
 * When a Streamable HTTP response stream breaks before its response (after the server sent an event id),
 * the SDK reopens it with GET and `Last-Event-ID`, waiting the server's `retry:` or this backoff; servers
 * with an event store then replay what was missed. The SDK default gives up after 2 tries; a call whose
 * stream is never resumed ends by its silence timeout (see call.ts).
 */
export const RESUMPTION: StreamableHTTPReconnectionOptions = {
  initialReconnectionDelay: 1000,
  maxReconnectionDelay: 30_000,
  reconnectionDelayGrowFactor: 2,
  maxRetries: 6,
};

/** The transports to try for a server, in order; `fallback` only when the first one's connect may fail over. */
export interface TransportPlan {
  primary: () => McpTransport | Promise<McpTransport>;
  /** For a Streamable HTTP URL: the legacy HTTP+SSE transport to the same URL. */
  fallback?: () => McpTransport;
  /** For an HTTP server with sign-in: when its transports sign in, for the handshake's bound (handshake.ts). */
  signIns?: SignInPauses;
}

/** The plan's first transport; one that cannot be built is McpClientError 'connect_failed'. */
export async function primaryTransport(plan: TransportPlan, server: string): Promise<McpTransport> {
  try {
    return await plan.primary();
  } catch (error) {
    throw new McpClientError('connect_failed', server, `could not build a transport for ${server}`, {
      cause: error,
    });
  }
}

/** The only variables of the bot's own environment a child inherits: its secrets stay in the bot. */
const INHERITED_ENV = ['PATH', 'HOME'] as const;

/**
 * The child's environment: PATH and HOME from `parent`, then the configured `env` on top.
 * (The SDK adds LOGNAME, SHELL, TERM and USER from the bot's environment as well; it always does.)
 */
export function childEnv(
  configured: Record<string, string>,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = parent[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...configured };
}

/**
 * Awaited before each HTTP request to an MCP server is sent and again once its response came, before the SDK
 * reads, parses and acts on it (McpHubOptions.turn).
 */
export type Turn = () => Promise<void>;

/**
 * `authProvider`: the session's sign-in (auth/sign-in.ts), for HTTP transports; stdio has no OAuth. `turn`: see
 * Turn; absent, HTTP exchanges go at once.
 */
export function transportPlan(
  spec: McpServerSpec,
  logger?: McpLogger,
  authProvider?: OAuthClientProvider,
  turn?: Turn,
): TransportPlan {
  const t = spec.transport;
  if (t.kind === 'stdio') return { primary: () => stdioTransport(spec.name, t, logger) };
  const signIns = authProvider === undefined ? undefined : new SignInPauses();
  const requestInit = httpOptions(new URL(t.url), t.headers, { authProvider, turn, signIns });
  const signing = signIns === undefined ? {} : { signIns };
  if (t.kind === 'sse') return { primary: () => sseTransport(new URL(t.url), requestInit), ...signing };
  return {
    primary: () =>
      new StreamableHTTPClientTransport(new URL(t.url), {
        ...requestInit,
        reconnectionOptions: RESUMPTION,
      }),
    fallback: () => sseTransport(new URL(t.url), requestInit),
    ...signing,
  };
}

/**
 * The SDK's legacy SSE transport, except that close() fails a start still waiting for the server's `endpoint`
 * event: the SDK's start settles only on that event or a stream error, so a server holding the GET stream open
 * and silent kept the handshake's connect (and the bound's end of it, handshake.ts) waiting forever after close.
 * The instance's methods are wrapped, as in serializeSends.
 */
function sseTransport(url: URL, init: ConstructorParameters<typeof SSEClientTransport>[1]): McpTransport {
  const transport = new SSEClientTransport(url, init);
  const start = transport.start.bind(transport);
  const close = transport.close.bind(transport);
  let closed = (): void => undefined;
  const closing = new Promise<never>((_resolve, reject) => {
    closed = () =>
      reject(new SdkError(SdkErrorCode.ConnectionClosed, 'closed before the SSE endpoint event'));
  });
  // Only a start races it; a transport closed without starting leaves nobody waiting on it.
  closing.catch(() => undefined);
  transport.start = () => Promise.race([start(), closing]);
  transport.close = async () => {
    closed();
    await close();
  };
  return transport;
}

/** What an HTTP transport's fetch is built with besides its endpoint and headers (all absent: plain httpFetch). */
interface HttpSignIn {
  authProvider: OAuthClientProvider | undefined;
  turn: Turn | undefined;
  signIns: SignInPauses | undefined;
}

/** The HTTP transports' options: the configured headers, the sign-in when the server has one, the turns. */
function httpOptions(
  endpoint: URL,
  headers: Record<string, string>,
  { authProvider, turn, signIns }: HttpSignIn,
) {
  const requestInit = { headers };
  const exchange = authProvider
    ? rediscoverOnRefusedToken(endpoint, authProvider, scopeChallengeAsForbidden(endpoint, httpFetch))
    : httpFetch;
  const turning = turn ? takingTurns(exchange, turn) : exchange;
  const fetch = signIns ? reportingSignIns(turning, endpoint, signIns) : turning;
  return { requestInit, ...(authProvider && { authProvider }), fetch };
}

/**
 * `fetch` telling `signIns` of each request to the MCP endpoint and of each 401 or 403 it answers, after which
 * the SDK signs in (the grant's refresh, the client's registration, the person's consent) before it sends again.
 * The other requests are the sign-in's own (metadata, registration, tokens).
 */
function reportingSignIns(fetch: FetchLike, endpoint: URL, signIns: SignInPauses): FetchLike {
  return async (url, init) => {
    const toServer = new URL(url).href === endpoint.href;
    if (toServer) signIns.sent();
    const response = await fetch(url, init);
    if (toServer && (response.status === 401 || response.status === 403)) signIns.refused();
    return response;
  };
}

/** `fetch` whose every exchange waits `turn` before its request goes and again before its response is handed on. */
function takingTurns(fetch: FetchLike, turn: Turn): FetchLike {
  return async (url, init) => {
    await turn();
    const response = await fetch(url, init);
    await turn();
    return response;
  };
}

/**
 * The spec's test for an old server: the initialize POST was answered 400, 404 or 405. Anything else
 * (unreachable, 401, 5xx) would fail the same way over SSE, so it is reported as it is.
 */
export function refusesStreamableHttp(error: unknown): boolean {
  return error instanceof SdkHttpError && [400, 404, 405].includes(error.status);
}

/** The HTTP status of a refused request, from either HTTP transport; undefined for anything else. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  if (error instanceof SseError) return error.code;
  return undefined;
}

function stdioTransport(
  name: string,
  t: Extract<McpServerSpec['transport'], { kind: 'stdio' }>,
  logger?: McpLogger,
): McpTransport {
  const transport = new StdioClientTransport({
    command: t.command,
    args: t.args,
    env: childEnv(t.env),
    ...(t.cwd === undefined ? {} : { cwd: t.cwd }),
    stderr: logger === undefined ? 'ignore' : 'pipe',
  });
  const stderr = transport.stderr;
  if (logger !== undefined && stderr instanceof Readable) {
    createInterface({ input: stderr }).on('line', (line) =>
      logger.debug({ server: name, stderr: line }, 'mcp server stderr'),
    );
  }
  serializeSends(transport);
  return transport;
}

/**
 * The SDK's stdio send waits for the child's stdin to drain with one 'drain' listener per message while the
 * pipe is full, so a burst of answers (1 000 questions timing out together) added hundreds and Node warned
 * MaxListenersExceededWarning (issue 15.13). Here messages go out one at a time, in order: at most one send
 * waits for 'drain', and a server that reads slowly holds our messages back instead of the pipe's buffer.
 * The instance's send is wrapped rather than the class extended: SDK 2.x probes the era of a server on a
 * disposable sibling process only for a transport that is exactly its StdioClientTransport (a subclass is
 * probed in place, and a server that exits on the probe, as rmcp servers do, would be lost).
 */
function serializeSends(transport: StdioClientTransport): void {
  const send = transport.send.bind(transport);
  let tail: Promise<void> = Promise.resolve();
  transport.send = (message: JSONRPCMessage): Promise<void> => {
    const sent = tail.then(() => send(message));
    tail = sent.catch(() => undefined);
    return sent;
  };
}

/** Spawn errors that no retry can fix: the command does not exist or may not be run. */
const LASTING_SPAWN_ERRORS = ['ENOENT', 'EACCES', 'ENOTDIR'];

/**
 * True when a connect failure will not go away by itself, so retrying is pointless until someone changes
 * the configuration: the command cannot be started, or the server answers 4xx (bad URL, credentials,
 * forbidden) other than 408 and 429. Looks through the error's `cause` chain.
 */
export function isLastingFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const status = httpStatusOf(current);
    if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429)
      return true;
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && LASTING_SPAWN_ERRORS.includes(code)) return true;
    current = current.cause;
  }
  return false;
}

/** The server no longer knows the session (Streamable HTTP 404): the spec says to start a new one. */
export function isSessionExpired(error: unknown): boolean {
  return error instanceof SdkHttpError && error.status === 404;
}

/** A request that never got an answer because the HTTP exchange itself failed (refused, reset, bad status). */
export function isTransportFailure(error: unknown): boolean {
  if (error instanceof SdkHttpError || error instanceof SseError) return true;
  // fetch's "fetch failed" (Node's and src/http's) carries the socket error (ECONNREFUSED, ECONNRESET…) as its cause.
  const cause: unknown = error instanceof TypeError ? error.cause : undefined;
  return typeof (cause as NodeJS.ErrnoException | undefined)?.code === 'string';
}
