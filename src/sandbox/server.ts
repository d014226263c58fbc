// The sandbox page's HTTP server: the page's three files, its state long-poll and its action endpoints.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.js';
import { McpClientError, type ToolSummary } from '../mcp/index.js';
import { StandinError } from '../standin/index.js';
import { ACTIONS, type ActionDeps, SandboxError } from './actions.js';
import { conversations, personState } from './state.js';

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
  send(
    res,
    200,
    personState(deps.standin, deps.timeline, { userId, channel, version, conversations: known }),
  );
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

async function handle(deps: PageDeps, assets: Assets, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://sandbox');
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
  send(res, 200, await action(deps, await readJson(req)));
}

/** Answers errors the person can act on (unknown block, required field empty) with 422 and their code. */
function fail(deps: PageDeps, res: ServerResponse, error: unknown): void {
  if (error instanceof SandboxError || error instanceof StandinError) {
    return send(res, 422, { error: error.code, message: error.message });
  }
  deps.logger.error({ err: error }, 'sandbox request failed');
  send(res, 500, { error: 'internal_error', message: String(error) });
}

/** Serves the page on host:port (0 = a free port); resolves once it listens. */
export async function servePage(
  deps: PageDeps,
  host: string,
  port: number,
): Promise<{ server: Server; port: number }> {
  const assets = readAssets(pageDir());
  const server = createServer((req, res) => {
    handle(deps, assets, req, res).catch((error: unknown) => fail(deps, res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
