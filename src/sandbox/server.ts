// The sandbox page's HTTP server: the page's files, its state long-poll and its action endpoints; the
// Automations API passed on to the bot (so the panel's commands use the page's address) and the sandbox's
// own webhook receiver.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.js';
import { CALLBACK_PATH, McpClientError, type ToolSummary } from '../mcp/index.js';
import { StandinError } from '../standin/index.js';
import { ACTIONS, type ActionDeps, SandboxError } from './actions.js';
import { type Automations, RECEIVER_PATH, type WebhookReceiver } from './automations.js';
import { conversations, personState } from './state.js';
import { isLoopbackHostname } from './loopback.js';

/** The longest a state long-poll waits for a change before answering anyway, in ms. */
const LONG_POLL_MS = 20_000;

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

// From src/sandbox/ the page is ./page/; the compiled dist/src/sandbox/ reads it from the source tree.
function pageDir(): string {
  const candidates = ['./page/', '../../../src/sandbox/page/'].map((p) =>
    fileURLToPath(new URL(p, import.meta.url)),
  );
  const found = candidates.find((dir) => existsSync(`${dir}index.html`));
  if (!found) throw new SandboxError('page_missing', `the sandbox page is not in ${candidates.join(' or ')}`);
  return found;
}

export interface PageDeps extends ActionDeps {
  /** What GET /api/info returns: the people, the servers and suggested commands. */
  info: unknown;
  /** The tools of one server, as one person's MCP session lists them. */
  listTools(server: string, userId: string): Promise<ToolSummary[]>;
  logger: Logger;
  /** The bot's own HTTP port: /api/v1, /mcp and the sign-in callback are passed on to it. */
  botPort: number;
  receiver: WebhookReceiver;
  /** The Automations panel's commands for one person. */
  automationsFor(userId: string): Automations;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch (cause) {
    throw new SandboxError('bad_request', 'the body is not JSON', { cause });
  }
  throw new SandboxError('bad_request', 'the body must be a JSON object');
}

async function state(deps: PageDeps, url: URL, res: ServerResponse): Promise<void> {
  const userId = url.searchParams.get('user') ?? '';
  if (!(userId in deps.people))
    return send(res, 404, { error: 'unknown_person', message: `nobody called ${userId}` });
  const channel = url.searchParams.get('channel') || undefined;
  const after = Number(url.searchParams.get('after') ?? -1);
  if (Number.isFinite(after)) await deps.changes.wait(after, LONG_POLL_MS);
  const known = conversations(deps.standin, deps.people);
  if (channel !== undefined && !known.some((c) => c.id === channel))
    return send(res, 404, { error: 'unknown_conversation', message: `no conversation ${channel}` });
  const version = deps.changes.version();
  const automations = { ...deps.automationsFor(userId), webhooks: deps.receiver.list() };
  send(res, 200, {
    ...personState(deps.standin, deps.timeline, { userId, channel, version, conversations: known }),
    automations,
  });
}

/** The bot's probes and metrics, served on PORT in every mode (README), so on the page's address here too. */
const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The folder of the bot's sign-in pages, `/oauth/mcp/`. */
const SIGN_IN_PAGES = CALLBACK_PATH.slice(0, CALLBACK_PATH.lastIndexOf('/') + 1);

/**
 * The bot's paths the page's address also serves: the Automations API, the MCP endpoint, the sign-in pages
 * (a Connect link's start page and the callback, beside each other under /oauth/mcp/), the probes and the metrics.
 */
const isBotPath = (path: string): boolean =>
  path.startsWith('/api/v1/') ||
  path === '/mcp' ||
  path.startsWith(SIGN_IN_PAGES) ||
  OPERATIONS_PATHS.has(path);

/** Streams the request to the bot and its answer back, headers and status unchanged. */
function forward(deps: PageDeps, req: IncomingMessage, res: ServerResponse): void {
  const upstream = request(
    { host: '127.0.0.1', port: deps.botPort, path: req.url, method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  let gone = false;
  upstream.on('error', (error) => {
    if (!gone) fail(deps, res, error);
  });
  // A client that gives up (a long-poll closed) frees the bot's waiter too.
  res.on('close', () => {
    if (res.writableFinished) return;
    gone = true;
    upstream.destroy();
  });
  req.pipe(upstream);
}

async function receive(deps: PageDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  deps.receiver.receive(req.headers, Buffer.concat(chunks).toString('utf8'), Date.now());
  send(res, 200, { ok: true });
}

/** The page's files by URL path (`/` is index.html), read once at start. */
type Assets = Map<string, { type: string; body: Buffer }>;

function readAssets(dir: string): Assets {
  const files = readdirSync(dir).filter((f) => (f.split('.').pop() ?? '') in TYPES);
  return new Map(
    files.map((file) => [
      file === 'index.html' ? '/' : `/${file}`,
      { type: TYPES[file.split('.').pop() ?? ''] ?? '', body: readFileSync(`${dir}${file}`) },
    ]),
  );
}

/** A server's tools; a server that cannot be reached answers 502 with the MCP client's reason. */
async function tools(deps: PageDeps, url: URL, res: ServerResponse): Promise<void> {
  const userId = url.searchParams.get('user') ?? '';
  if (!(userId in deps.people))
    return send(res, 404, { error: 'unknown_person', message: `nobody called ${userId}` });
  try {
    send(res, 200, { tools: await deps.listTools(url.searchParams.get('server') ?? '', userId) });
  } catch (error) {
    if (!(error instanceof McpClientError)) throw error;
    send(res, 502, { error: error.code, message: error.message });
  }
}

/**
 * Host names the page answers to: those a browser on this machine reaches it by. The page has no sign-in and
 * its state carries the API token, so a request naming any other host (a DNS-rebinding site whose name
 * resolves here, read by the browser as that site's own) is refused.
 */
function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    return isLoopbackHostname(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

/**
 * Whether another site sent this: a host that is not this machine's, or a POST whose Origin is another page's
 * (a browser sends a cross-site text/plain or form POST without asking first, and always names its Origin).
 */
function fromAnotherSite(req: IncomingMessage): boolean {
  const { host, origin } = req.headers;
  if (!isLoopbackHost(host)) return true;
  return req.method !== 'GET' && req.method !== 'HEAD' && origin !== undefined && origin !== `http://${host}`;
}

/** A page action's body is JSON: any other type is what a cross-site form or text/plain POST would send. */
const isJson = (req: IncomingMessage): boolean =>
  (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';

async function handle(deps: PageDeps, assets: Assets, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  // The bot's own paths check their callers themselves (bearer token, the sign-in's state): an automation on
  // another machine or in a container may reach the API through this port by any host name.
  if (isBotPath(url.pathname)) return forward(deps, req, res);
  if (fromAnotherSite(req))
    return send(res, 403, { error: 'forbidden', message: 'open the page at http://localhost' });
  if (req.method === 'POST' && url.pathname === RECEIVER_PATH) return receive(deps, req, res);
  const asset = assets.get(url.pathname);
  if (req.method === 'GET' && asset) {
    res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-store' });
    return void res.end(asset.body);
  }
  if (req.method === 'GET' && url.pathname === '/api/info') return send(res, 200, deps.info);
  if (req.method === 'GET' && url.pathname === '/api/state') return state(deps, url, res);
  if (req.method === 'GET' && url.pathname === '/api/tools') return tools(deps, url, res);
  const action = req.method === 'POST' ? ACTIONS[url.pathname] : undefined;
  if (!action) return send(res, 404, { error: 'not_found' });
  if (!isJson(req)) return send(res, 415, { error: 'unsupported_media_type', message: 'send JSON' });
  send(res, 200, await action(deps, await readJson(req)));
}

/** Answers errors the person can act on (unknown block, required field empty) with 422 and their code. */
function fail(deps: PageDeps, res: ServerResponse, error: unknown): void {
  if (res.headersSent) return void res.destroy();
  if (error instanceof SandboxError || error instanceof StandinError) {
    return send(res, 422, { error: error.code, message: error.message });
  }
  deps.logger.error({ err: error }, 'sandbox request failed');
  send(res, 500, { error: 'internal_error', message: String(error) });
}

/**
 * Answers a request that comes before the page is served (servePage): the sandbox listens on its port before the
 * bot starts, and a request a server has no listener for is never answered, so a probe or a reload during those
 * seconds of start-up hung for good. Told to try again in a second instead.
 */
function stillStarting(_req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('retry-after', '1');
  res.setHeader('connection', 'close');
  send(res, 503, { error: 'starting', message: 'elicit-relay is starting; try again in a moment' });
}

/** Listens on host:port (0 = a free port) before the bot starts, so the bot can allow the receiver's port. */
export async function listenPage(host: string, port: number): Promise<{ server: Server; port: number }> {
  const server = createServer(stillStarting);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** Serves the page on a listening server (until this runs, every request is answered 503 starting). */
export function servePage(deps: PageDeps, server: Server): void {
  const assets = readAssets(pageDir());
  server.off('request', stillStarting);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(deps, assets, req, res).catch((error: unknown) => fail(deps, res, error));
  });
}
