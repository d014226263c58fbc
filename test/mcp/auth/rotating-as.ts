// An authorization server that rotates refresh tokens (OAuth 2.1 §4.3.1, as Auth0, Okta, Entra and most hosted
// servers do): a front over the sandbox's local authorization server (src/sandbox/oauth), which keeps one refresh
// token per grant. Every refresh token this front hands out is good for one refresh; the refresh answers a new
// one, and the spent one is refused with invalid_grant. Access tokens pass through unchanged, so the protected
// fixture checks them against the sandbox server as usual. A test can hold refresh requests or their answers.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthServer } from '../../../src/sandbox/oauth/index.js';

export interface RotatingServer {
  /** What the protected fixture needs of an authorization server: this front's issuer, the sandbox's checks. */
  asOAuthServer: OAuthServer;
  issuer: URL;
  /** Refresh requests seen (answered or refused). */
  refreshes: { refused: boolean }[];
  /**
   * When set, each refresh request waits for it before it is handled (the test lines up concurrent refreshes).
   */
  beforeRefresh?: (n: number) => Promise<void>;
  /** When set, an answered refresh waits for it before its answer leaves (a refresh still in flight). */
  beforeRefreshAnswer?: () => Promise<void>;
  close(): Promise<void>;
}

const read = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startRotatingServer(upstream: OAuthServer): Promise<RotatingServer> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
  const up = upstream.issuer.origin;
  /** This front's live refresh tokens → the sandbox's refresh token behind them. */
  const live = new Map<string, string>();
  /** Spent refresh tokens → the sandbox's (for revocation). */
  const spent = new Map<string, string>();
  const front: RotatingServer = {
    issuer,
    refreshes: [],
    asOAuthServer: {
      ...upstream,
      issuer,
      resources: upstream.resources,
      verify: (token) => upstream.verify(token),
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  const mint = (behind: string): string => {
    const token = `rot-${randomBytes(12).toString('base64url')}`;
    live.set(token, behind);
    return token;
  };
  const forward = async (req: IncomingMessage, path: string, body: string) => {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept', 'dpop'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
    const response = await fetch(`${up}${path}`, {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'POST' ? { body } : {}),
      redirect: 'manual',
    });
    return {
      status: response.status,
      text: await response.text(),
      type: response.headers.get('content-type'),
    };
  };
  const send = (res: ServerResponse, status: number, text: string, type = 'application/json'): void => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(text);
  };
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', issuer);
    const body = req.method === 'POST' ? await read(req) : '';
    if (url.pathname.startsWith('/.well-known/')) {
      const answer = await forward(req, url.pathname, body);
      return send(res, answer.status, answer.text.split(up).join(issuer.origin));
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(body);
      if (form.get('grant_type') === 'refresh_token') {
        const n = front.refreshes.length + 1;
        const entry = { refused: false };
        front.refreshes.push(entry);
        await front.beforeRefresh?.(n);
        const given = form.get('refresh_token') ?? '';
        const behind = live.get(given);
        if (behind === undefined) {
          entry.refused = true;
          return send(
            res,
            400,
            JSON.stringify({ error: 'invalid_grant', error_description: 'refresh token spent' }),
          );
        }
        live.delete(given);
        spent.set(given, behind);
        form.set('refresh_token', behind);
        const answer = await forward(req, '/token', form.toString());
        if (answer.status !== 200) return send(res, answer.status, answer.text);
        const tokens = JSON.parse(answer.text) as { refresh_token?: string };
        if (tokens.refresh_token !== undefined) tokens.refresh_token = mint(tokens.refresh_token);
        await front.beforeRefreshAnswer?.();
        return send(res, 200, JSON.stringify(tokens));
      }
      const answer = await forward(req, '/token', body);
      if (answer.status !== 200) return send(res, answer.status, answer.text);
      const tokens = JSON.parse(answer.text) as { refresh_token?: string };
      if (tokens.refresh_token !== undefined) tokens.refresh_token = mint(tokens.refresh_token);
      return send(res, 200, JSON.stringify(tokens));
    }
    if (url.pathname === '/revoke' && req.method === 'POST') {
      const form = new URLSearchParams(body);
      const token = form.get('token') ?? '';
      const behind = live.get(token) ?? spent.get(token);
      if (behind !== undefined) {
        live.delete(token);
        form.set('token', behind);
      }
      const answer = await forward(req, '/revoke', form.toString());
      return send(res, answer.status, answer.text);
    }
    const answer = await forward(req, `${url.pathname}${url.search}`, body);
    return send(res, answer.status, answer.text, answer.type ?? 'application/json');
  };
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((error: unknown) => send(res, 500, JSON.stringify({ error: String(error) })));
  });
  return front;
}
