// The "tracker": a Streamable HTTP MCP server behind OAuth (MCP authorization spec, issue #20) that greets the
// signed-in person by their account. Without a live bearer token it answers 401 + WWW-Authenticate naming its
// protected resource metadata (RFC 9728). Tools: `hello` greets the token's subject, `whoami` answers it,
// `admin_report` needs the extra scope `admin` (403 insufficient_scope otherwise: step-up).
// The sandbox runs it as its own process against its local authorization server (src/sandbox/oauth), checking
// tokens by introspection (RFC 7662):
//   node examples/tracker.js --issuer <authorization server URL>   prints `listening <mcp url>`
// The sign-in tests start it in this process with the authorization server's own check
// (test/fixtures/protected-server.ts).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { text } from './shared.js';

/** The scope every call needs, and the one `admin_report` needs on top. */
export const BASE_SCOPE = 'mcp';
export const ADMIN_SCOPE = 'admin';

/** What a live access token grants, as the authorization server knows it. */
export interface TokenGrant {
  subject: string;
  clientId: string;
  scopes: string[];
  /** The resource (RFC 8707) it was issued for: the tracker's MCP URL. */
  resource: string;
}

export interface TrackerOptions {
  /** The authorization server its resource metadata names (read at each request, so it can move: SEP-2352). */
  authorizationServer(): string;
  /** The grant of a live access token, or undefined when unknown, revoked or expired. */
  verify(token: string): TokenGrant | undefined | Promise<TokenGrant | undefined>;
  /**
   * What its protected resource metadata says: `served` (default) names the authorization server;
   * `absent` answers 404; `wrong` names an authorization server that is not there.
   */
  resourceMetadata?: 'served' | 'absent' | 'wrong';
  /**
   * The status of its `insufficient_scope` challenge: 403 (default, as RFC 6750 §3.1 says), or 401, as some
   * servers answer it (the MCP spec's scope challenge handling covers both).
   */
  scopeChallenge?: 401 | 403;
}

export interface Tracker {
  /** The MCP endpoint, which is also the protected resource's identifier. */
  url: URL;
  close(): Promise<void>;
}

/** An authorization server nobody listens on (port 9 is discard; nothing serves it here). */
const NOWHERE = 'http://127.0.0.1:9';

function createTrackerMcpServer(): McpServer {
  const server = new McpServer({ name: 'tracker', version: '1.0.0' });
  const subjectOf = (auth: AuthInfo | undefined): string => {
    const subject = auth?.extra?.subject;
    return typeof subject === 'string' ? subject : '(nobody)';
  };
  server.registerTool('hello', { description: 'Greets you by the account you signed in with' }, (extra) =>
    text(`Hello, ${subjectOf(extra.authInfo)}! You are signed in to the tracker.`),
  );
  server.registerTool('whoami', { description: "The signed-in person's subject" }, (extra) =>
    text(subjectOf(extra.authInfo)),
  );
  server.registerTool('admin_report', { description: `Needs the ${ADMIN_SCOPE} scope` }, (extra) =>
    text(`report for ${subjectOf(extra.authInfo)}`),
  );
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  return body === '' ? undefined : (JSON.parse(body) as unknown);
}

/** The scope a JSON-RPC message needs beyond the base one, if any. */
function extraScopeFor(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || !('method' in message)) return undefined;
  if (message.method !== 'tools/call' || !('params' in message)) return undefined;
  const params = message.params;
  const name = typeof params === 'object' && params !== null && 'name' in params ? params.name : undefined;
  return name === 'admin_report' ? ADMIN_SCOPE : undefined;
}

function challenge(
  res: ServerResponse,
  metadataUrl: string,
  status: 401 | 403,
  error: string | undefined,
  scope: string,
): void {
  const parts = [`resource_metadata="${metadataUrl}"`, `scope="${scope}"`];
  if (error !== undefined) parts.unshift(`error="${error}"`);
  res.writeHead(status, {
    'www-authenticate': `Bearer ${parts.join(', ')}`,
    'content-type': 'application/json',
  });
  res.end(JSON.stringify({ error: error ?? 'unauthorized' }));
}

export async function startTracker(options: TrackerOptions): Promise<Tracker> {
  const served = options.resourceMetadata ?? 'served';
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const url = new URL('/mcp', origin);
  const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
  const transports = new Map<string, StreamableHTTPServerTransport>();

  const authorized = async (req: IncomingMessage, res: ServerResponse): Promise<TokenGrant | undefined> => {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const grant = bearer === undefined ? undefined : await options.verify(bearer);
    if (grant === undefined || grant.resource !== url.href || !grant.scopes.includes(BASE_SCOPE)) {
      challenge(res, metadataUrl, 401, bearer === undefined ? undefined : 'invalid_token', BASE_SCOPE);
      return undefined;
    }
    return grant;
  };

  const mcp = async (req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse): Promise<void> => {
    const grant = await authorized(req, res);
    if (grant === undefined) return;
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const extra = extraScopeFor(body);
    if (extra !== undefined && !grant.scopes.includes(extra)) {
      const scopes = [...new Set([...grant.scopes, extra])].join(' ');
      return challenge(res, metadataUrl, options.scopeChallenge ?? 403, 'insufficient_scope', scopes);
    }
    req.auth = {
      token: '',
      clientId: grant.clientId,
      scopes: grant.scopes,
      extra: { subject: grant.subject },
    };
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      if (sessionId !== undefined) return void res.writeHead(404).end();
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      created.onclose = () => void (created.sessionId !== undefined && transports.delete(created.sessionId));
      await createTrackerMcpServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  };

  const resourceMetadata = () => ({
    resource: url.href,
    authorization_servers: [served === 'wrong' ? NOWHERE : options.authorizationServer().replace(/\/$/, '')],
    scopes_supported: [BASE_SCOPE, ADMIN_SCOPE],
    bearer_methods_supported: ['header'],
  });
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    if (
      served !== 'absent' &&
      (path === '/.well-known/oauth-protected-resource/mcp' ||
        path === '/.well-known/oauth-protected-resource')
    ) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(resourceMetadata()));
      return;
    }
    if (path !== '/mcp') return void res.writeHead(404).end();
    mcp(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        for (const transport of transports.values()) void transport.close();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** RFC 7662 at the authorization server's /introspect: the grant of an active token issued for this tracker. */
async function introspect(issuer: string, token: string): Promise<TokenGrant | undefined> {
  const response = await fetch(new URL('/introspect', issuer), {
    method: 'POST',
    body: new URLSearchParams({ token }),
  });
  if (!response.ok) return undefined;
  const answer = (await response.json()) as Record<string, unknown>;
  const { active, sub, client_id: clientId, scope, aud } = answer;
  if (active !== true || typeof sub !== 'string' || typeof clientId !== 'string') return undefined;
  if (typeof scope !== 'string' || typeof aud !== 'string') return undefined;
  return { subject: sub, clientId, scopes: scope.split(' '), resource: aud };
}

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf('--issuer');
  const issuer = at === -1 ? undefined : argv[at + 1];
  if (issuer === undefined) {
    process.stderr.write('usage: tracker --issuer <authorization server URL>\n');
    process.exit(2);
  }
  const tracker = await startTracker({
    authorizationServer: () => issuer,
    verify: (token) => introspect(issuer, token),
  });
  process.stdout.write(`listening ${tracker.url.href}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
