// A session's opening, bounded in time. A server that takes the connection (its stdio child started, or its HTTP
// endpoint holding the POST) but never answers would otherwise be waited for as long as the SDK's request
// timeout (60 s for `initialize`, after a 10 s era probe over stdio): the person who ran a tool, the pool place
// and the control link's check all waited that long. Past the bound the connect is ended (the child process
// killed, the HTTP request aborted) and awaited, and the open fails McpClientError 'handshake_timeout', which
// every caller meets as it meets any server it cannot reach. The bound is the server's silence only: while the
// client signs in (between the server's 401 or 403 and the request sent again: a claim another replica holds on
// the grant's refresh, ≤ 15 s, or on the client registration, ≤ 30 s, and the authorization server's answers)
// it is paused (SignInPauses, which the HTTP transport's fetch tells: transport.ts). One bound covers the whole
// open, the legacy SSE fallback of a Streamable HTTP URL included. A handshake nobody needs any more (the hub
// closing, the one run waiting for it cancelled) is ended the same way at once, not left to run to its bound.
import { SdkError, SdkErrorCode, type Client, type PriorDiscovery } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import { McpClientError, type McpServerSpec, type McpTransport } from './types.js';

/**
 * How long a server has to answer its handshake once started, in ms, when it sets no `startupTimeout`: 30 s. A
 * healthy server answers in milliseconds; a stdio server started through a package runner (`npx -y pkg`,
 * `uvx pkg`) downloads its package first on a cold cache, 10–40 s.
 */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;

/**
 * How long a server has to answer the era probe (`server/discover`) over stdio, in ms: 10 s. Silence there means
 * a 2025 server (a 2025 server usually answers it with an error at once), which is then asked `initialize` and
 * has its whole startup timeout for that; so a probing connection's bound is this plus the startup timeout.
 */
export const PROBE_TIMEOUT_MS = 10_000;

/**
 * How far past the bound the SDK's own timers of the handshake (`initialize`'s request timeout, an HTTP probe's)
 * are set, in ms: 10 min. They run on real time and cannot pause while the client signs in, so the bound alone
 * decides (an HTTP probe's silence is an outage, which the bound reports as it reports any other).
 */
const SDK_TIMER_SLACK_MS = 10 * 60_000;

/** The handshake's bound for `spec`, in ms: its startup timeout, and the probe's time before it when probing. */
export function handshakeLimitMs(spec: Pick<McpServerSpec, 'startupTimeoutMs'>, probing: boolean): number {
  const startup = spec.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  return probing ? PROBE_TIMEOUT_MS + startup : startup;
}

/** The SDK's own probe timeout for a connection over `kind`, in ms (see PROBE_TIMEOUT_MS, SDK_TIMER_SLACK_MS). */
export function sdkProbeTimeoutMs(spec: Pick<McpServerSpec, 'startupTimeoutMs' | 'transport'>): number {
  if (spec.transport.kind === 'stdio') return PROBE_TIMEOUT_MS;
  return handshakeLimitMs(spec, true) + SDK_TIMER_SLACK_MS;
}

/** What a bound is told by SignInPauses. */
interface Pausable {
  pause(): void;
  resume(): void;
}

/**
 * Where an HTTP transport's fetch reports sign-ins to the handshake's bound (transport.ts): the server refused a
 * request for want of a sign-in (401, or 403 for more scope), so the SDK signs in before it sends again; a request
 * went to the server. Outside a handshake nobody listens.
 */
export class SignInPauses {
  private bound: Pausable | undefined;

  /** The server answered a request 401 or 403: the SDK signs in (or fails the request) before anything else. */
  refused(): void {
    this.bound?.pause();
  }

  /** A request goes to the server (the first, or one sent again after a sign-in). */
  sent(): void {
    this.bound?.resume();
  }

  /** `bound` hears from now on, until the returned function is called. */
  listen(bound: Pausable): () => void {
    this.bound = bound;
    return () => {
      if (this.bound === bound) this.bound = undefined;
    };
  }
}

/** What a session to open names: its server, its clock, the era verdict it starts from (none: it probes). */
interface Opening {
  spec: Pick<McpServerSpec, 'name' | 'startupTimeoutMs'>;
  clock: Pick<Clock, 'now' | 'schedule'>;
  prior?: PriorDiscovery;
  /** The HTTP transport's sign-in reports (transport.ts); absent for a server without `auth`. */
  signIns?: SignInPauses;
  /**
   * Aborted, the handshake under way ends at once (the hub closes, or the one run waiting for it was cancelled):
   * it fails with the reason when that is an McpClientError ('closed'), else McpClientError 'aborted'.
   */
  signal?: AbortSignal;
}

/**
 * One session's opening under one bound, however many connects it takes: a Streamable HTTP URL that refuses the
 * transport and then keeps its legacy SSE fallback silent fails within the bound, not within twice it. Start it
 * before the first connect and end() it once the open settled.
 */
export class Handshake {
  private readonly limitMs: number;
  private readonly timer: HandshakeTimer;
  private readonly unlisten: () => void;
  private readonly aborted: Promise<typeof ABORTED>;
  private unwatch: () => void = () => undefined;

  constructor(private readonly opening: Opening) {
    this.limitMs = handshakeLimitMs(opening.spec, opening.prior === undefined);
    this.timer = new HandshakeTimer(opening.clock, this.limitMs);
    this.unlisten = opening.signIns?.listen(this.timer) ?? (() => undefined);
    const signal = opening.signal;
    this.aborted = new Promise((resolve) => {
      if (signal === undefined) return;
      const abort = (): void => resolve(ABORTED);
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      this.unwatch = () => signal.removeEventListener('abort', abort);
    });
  }

  /** `client.connect(transport)` within what is left of the bound, unless the opening is aborted first. */
  async connect(client: Client, transport: McpTransport): Promise<void> {
    if (this.opening.signal?.aborted === true) {
      await transport.close().catch(() => undefined);
      throw this.abortedError();
    }
    const prior = this.opening.prior;
    const options = { timeout: this.limitMs + SDK_TIMER_SLACK_MS };
    const connecting = client.connect(transport, prior === undefined ? options : { ...options, prior });
    const ending = await Promise.race([connecting, this.timer.expired, this.aborted]);
    if (ending === undefined) return;
    // Closing the transport settles the SDK's connect: a request in flight fails with the connection, and a
    // stdio probe's sibling process is reaped before its connect rejects.
    await Promise.allSettled([transport.close(), connecting]);
    throw ending === EXPIRED ? handshakeTimedOut(this.opening) : this.abortedError();
  }

  /** The open settled: the bound stops and hears no more (its sign-in reports, its signal). */
  end(): void {
    this.timer.stop();
    this.unlisten();
    this.unwatch();
  }

  private abortedError(): McpClientError {
    return openAborted(this.opening.spec.name, this.opening.signal?.reason);
  }
}

const EXPIRED = Symbol('expired');
const ABORTED = Symbol('aborted');

/** The bound on the injected clock: resolves `expired` once it ran `limitMs` in all, not counting its pauses. */
class HandshakeTimer implements Pausable {
  readonly expired: Promise<typeof EXPIRED>;
  private expire: () => void = () => undefined;
  private leftMs: number;
  private since = 0;
  private cancel: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly clock: Opening['clock'],
    limitMs: number,
  ) {
    this.leftMs = limitMs;
    this.expired = new Promise((resolve) => (this.expire = () => resolve(EXPIRED)));
    this.run();
  }

  pause(): void {
    if (this.cancel === undefined) return;
    this.cancel();
    this.cancel = undefined;
    this.leftMs -= this.clock.now() - this.since;
  }

  resume(): void {
    if (this.cancel === undefined && !this.stopped) this.run();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = undefined;
  }

  private run(): void {
    this.since = this.clock.now();
    this.cancel = this.clock.schedule(this.expire, Math.max(0, this.leftMs));
  }
}

/**
 * A failed open as the hub reports it: the Handshake's own failures as they are ('handshake_timeout' past the
 * bound, 'closed' or 'aborted' when aborted); 'handshake_timeout' for the SDK's timeout of a handshake request
 * (set past the bound, so only a sign-in longer than 10 min meets it); else 'connect_failed' with the failure as
 * its cause.
 */
export function openFailure(error: unknown, opening: Pick<Opening, 'spec' | 'prior'>): McpClientError {
  const server = opening.spec.name;
  if (error instanceof McpClientError) return error;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
    return handshakeTimedOut(opening, error);
  return new McpClientError('connect_failed', server, `could not connect to ${server}`, { cause: error });
}

/** The failure naming the limit the connection had (`startupTimeout`, and the probe's time when probing). */
function handshakeTimedOut(
  { spec, prior }: Pick<Opening, 'spec' | 'prior'>,
  cause?: unknown,
): McpClientError {
  const seconds = handshakeLimitMs(spec, prior === undefined) / 1000;
  const message = `${spec.name} did not answer the MCP handshake within ${seconds} s`;
  return new McpClientError('handshake_timeout', spec.name, message, cause === undefined ? {} : { cause });
}

/** An open of `server` aborted with `reason`: the reason when it is McpClientError ('closed'), else 'aborted'. */
export function openAborted(server: string, reason: unknown): McpClientError {
  if (reason instanceof McpClientError) return reason;
  return new McpClientError('aborted', server, `opening a session to ${server} was aborted`, {
    cause: reason,
  });
}
