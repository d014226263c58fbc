// The bot's own HTTP server on PORT, the same in every mode: probes (/healthz, /readyz: answered in readyz.ts),
// the OAuth install pages when the app is distributed, and in HTTP mode Slack's requests at POST /slack/events.
// Slack's requests pass a timestamp check in BOTH directions before their signature is checked
// (events-receiver.ts, which signs the timestamp header as sent): a timestamp from the future is refused too.
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { systemClock, type Clock, type Schedule } from '../clock.js';
import type { Logger } from '../logger.js';
import type { SlackRequestsInFlight } from './ack-gate.js';
import { ReadinessLog } from './readiness-log.js';
import { answerReadiness, READINESS_TIMEOUT_MS, type Readiness, type ReadinessProbe } from './readyz.js';
import { bufferBody, RequestBodyError } from './request-body.js';

export { READINESS_FAILED, READINESS_TIMED_OUT, READINESS_TIMEOUT_MS, type Readiness } from './readyz.js';

export const EVENTS_PATH = '/slack/events';
/** Largest distance between X-Slack-Request-Timestamp and our clock, in seconds (Slack's sample code). */
export const MAX_CLOCK_SKEW_SEC = 300;
/**
 * Longest a connection just accepted counts as a request in flight while its first request is not read, in ms:
 * Slack writes its request with the connection, so one silent for longer is an idle client (or a loop too busy
 * to read it), and no longer holds post-ack work back.
 */
export const FRESH_CONNECTION_MS = 1_000;
/**
 * Longest close() waits for the requests under way to be answered before it drops their connections, in ms:
 * Slack's 3 s, after which Slack has given up on an ack anyway (a long-poll or MCP stream still open is cut).
 */
export const DRAIN_WITHIN_MS = 3_000;

export interface HttpServerOptions {
  port: number;
  /** The address to listen on; default every IPv4 interface, 0.0.0.0 (the sandbox's bot: loopback only). */
  host?: string;
  /** Liveness for /healthz: 200 while true, 503 otherwise. */
  live: () => boolean;
  /** Readiness for /readyz: 200 with this body when `ok`, else 503 with it. */
  ready: () => Promise<Readiness>;
  /** Told, sparingly, why `ready()` failed (READINESS_FAILED) and that it timed out (readiness-log.ts). */
  logger?: Pick<Logger, 'error' | 'warn' | 'info'>;
  /** Slack's requests with their body read into `rawBody` (HTTP mode: events-receiver.ts); absent in Socket Mode. */
  events?: RequestListener;
  /** More GET routes by exact path (the OAuth install and redirect pages). */
  routes?: Record<string, RequestListener>;
  /** Handlers that own every method under a path prefix (the Automations API at /api/v1). */
  mounts?: readonly Mount[];
  /** Hears each answered request at EVENTS_PATH: milliseconds from its arrival to the response, and the status. */
  onSlackResponse?: (ms: number, status: number) => void;
  /**
   * Counts each request at EVENTS_PATH from its arrival to its answer, and (with `events`) each connection just
   * accepted until its first request arrives (FRESH_CONNECTION_MS at most): post-ack work waits for none
   * (ack-gate.ts).
   */
  inFlight?: SlackRequestsInFlight;
  /** Judges X-Slack-Request-Timestamp and times /readyz's log lines; default the system clock. */
  clock?: Pick<Clock, 'now'>;
  /**
   * Times /readyz's check out (READINESS_TIMEOUT_MS), a fresh connection's count (FRESH_CONNECTION_MS) and
   * close()'s drain (DRAIN_WITHIN_MS); default the system's timers.
   */
  schedule?: Schedule;
}

/** A handler for `prefix` itself and every path below it (`${prefix}/…`), whatever the method. */
export interface Mount {
  prefix: string;
  handler: RequestListener;
}

export interface RunningHttpServer {
  port: number;
  close(): Promise<void>;
}

/** True when the header is a Unix time in seconds within MAX_CLOCK_SKEW_SEC of `nowMs`, either way. */
export function isFreshTimestamp(header: string | string[] | undefined, nowMs: number): boolean {
  const ts = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : NaN;
  return Number.isSafeInteger(ts) && Math.abs(Math.floor(nowMs / 1000) - ts) <= MAX_CLOCK_SKEW_SEC;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Hands Slack's request to the receiver once its body is read (events-receiver.ts parses it); 413 past the limit. */
async function passBuffered(
  req: IncomingMessage,
  res: ServerResponse,
  events: RequestListener,
): Promise<void> {
  try {
    events(await bufferBody(req), res);
  } catch (error) {
    // A body past the limit gets its status; a connection that broke mid-read has no one left to answer.
    if (error instanceof RequestBodyError) res.writeHead(413).end();
    else res.destroy();
  }
}

/** Reports how long `res` took to be answered, from now, once it finishes. */
function timeResponse(
  res: ServerResponse,
  clock: Pick<Clock, 'now'>,
  observe: HttpServerOptions['onSlackResponse'],
): void {
  if (!observe) return;
  const started = clock.now();
  res.once('finish', () => observe(clock.now() - started, res.statusCode));
}

/** Counts `res` in flight until it is answered (a response emits 'close' once, also when its connection broke). */
function countInFlight(res: ServerResponse, inFlight: SlackRequestsInFlight | undefined): void {
  if (inFlight) res.once('close', inFlight.arrived());
}

/**
 * Counts each connection `server` accepts as a request in flight until its first request arrives (the call
 * returned ends the count), it closes, or FRESH_CONNECTION_MS pass. A burst of Slack's requests is accepted
 * in one turn of the loop and read in later ones; work let go in between delayed their reading (issue #19
 * goal 7b: fresh connections waited 100-640 ms from accept to read while session starts ran).
 */
function countFreshConnections(
  server: Server,
  inFlight: SlackRequestsInFlight,
  schedule: Schedule,
): (socket: Socket) => void {
  const fresh = new WeakMap<Socket, () => void>();
  server.on('connection', (socket: Socket) => {
    const answered = inFlight.arrived();
    const end = (): void => {
      if (!fresh.delete(socket)) return;
      cancelBound();
      socket.off('close', end);
      answered();
    };
    fresh.set(socket, end);
    const cancelBound = schedule(end, FRESH_CONNECTION_MS);
    socket.once('close', end);
  });
  return (socket) => fresh.get(socket)?.();
}

export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const server = createServer();
  const schedule = opts.schedule ?? systemClock.schedule;
  // Only Slack's requests are counted: without `events` (Socket Mode) nothing here holds post-ack work.
  const requestRead =
    opts.inFlight && opts.events ? countFreshConnections(server, opts.inFlight, schedule) : () => undefined;
  const drain = new Drain(server, schedule);
  server.on('request', drain.track);
  server.on('request', router(opts, requestRead));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  return { port: (server.address() as AddressInfo).port, close: () => drain.close() };
}

/**
 * Each request by path: Slack's (timestamp checked, then buffered for the receiver), a mount's, the probes, the
 * GET routes; `requestRead` ends a fresh connection's count once its first request arrives.
 */
function router(opts: HttpServerOptions, requestRead: (socket: Socket) => void): RequestListener {
  const clock = opts.clock ?? systemClock;
  const { logger } = opts;
  const probe: ReadinessProbe = {
    ready: opts.ready,
    schedule: opts.schedule ?? systemClock.schedule,
    log: logger && new ReadinessLog({ logger, clock, timeoutMs: READINESS_TIMEOUT_MS }),
  };
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://bot').pathname;
    const method = req.method ?? 'GET';
    if (path === EVENTS_PATH && method === 'POST' && opts.events) {
      timeResponse(res, clock, opts.onSlackResponse);
      countInFlight(res, opts.inFlight);
      requestRead(req.socket);
      if (!isFreshTimestamp(req.headers['x-slack-request-timestamp'], clock.now())) {
        res.writeHead(401).end();
        return;
      }
      return void passBuffered(req, res, opts.events);
    }
    const mount = opts.mounts?.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
    requestRead(req.socket);
    if (mount) return void mount.handler(req, res);
    // HEAD too for the probes (RFC 9110 9.1): checks made with HEAD (HAProxy's `option httpchk HEAD`, uptime
    // monitors) got 404 and marked a healthy bot down.
    if (method !== 'GET' && !(method === 'HEAD' && PROBES.has(path))) return void res.writeHead(404).end();
    answerGet(req, res, path, opts, probe);
  };
}

/** The probes' paths: answered to GET and HEAD (Node leaves a HEAD response's body out). */
const PROBES: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** The probes and the GET routes by exact path; 404 for any other. */
function answerGet(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  opts: Pick<HttpServerOptions, 'live' | 'routes'>,
  probe: ReadinessProbe,
): void {
  if (path === '/healthz') {
    const live = opts.live();
    return json(res, live ? 200 : 503, { ok: live });
  }
  if (path === '/readyz') return void answerReadiness(res, probe);
  const page = opts.routes?.[path];
  if (page) return void page(req, res);
  res.writeHead(404).end();
}

/**
 * Closing without cutting a request under way: a Slack request being handled when the stop came (an answer
 * submitted, a click) was cut with its connection, so Slack showed the person an error for an answer the bot
 * may well have taken. close() stops listening and drops idle connections at once, lets each request under
 * way be answered (with `Connection: close`, so a keep-alive connection ends after it instead of idling for
 * keepAliveTimeout), and drops what is still open after DRAIN_WITHIN_MS.
 */
class Drain {
  private readonly open = new Set<ServerResponse>();
  private closing: Promise<void> | undefined;

  constructor(
    private readonly server: Server,
    private readonly schedule: Schedule,
  ) {}

  /** Counts a request as under way until its response is done ('close' also comes when its connection broke). */
  readonly track = (_req: IncomingMessage, res: ServerResponse): void => {
    if (this.closing) return Drain.last(res);
    this.open.add(res);
    res.once('close', () => this.open.delete(res));
  };

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve, reject) => {
      const cut = this.schedule(() => this.server.closeAllConnections(), DRAIN_WITHIN_MS);
      this.server.close((error) => {
        cut();
        if (error) reject(error);
        else resolve();
      });
      this.server.closeIdleConnections();
      for (const res of this.open) Drain.last(res);
    });
    return this.closing;
  }

  /** Ends `res`'s connection once it is answered: no further request is read from it. */
  private static last(res: ServerResponse): void {
    if (!res.headersSent) res.shouldKeepAlive = false;
    else res.once('finish', () => res.socket?.end());
  }
}
