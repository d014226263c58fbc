// Socket Mode as Slack documents it: apps.connections.open (app-level token) hands out a single-use WebSocket
// URL; on connect the stand-in says `hello`, then sends envelopes ({ envelope_id, type: slash_commands |
// interactive | events_api, payload, accepts_response_payload }) and takes acks ({ envelope_id, payload? })
// back; `disconnect` asks the app to reconnect through a fresh apps.connections.open. A test can have Slack
// refuse the app-level token (revoked, expired, without connections:write), as Slack answers: HTTP 200 with
// `{ ok: false, error }`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { type Obj, isObj } from './blockkit-check.js';
import { StandinError } from './calls.js';
import type { ApiBody } from './methods-chat.js';
import { fail } from './methods-chat.js';
import {
  type Delivery,
  type Outgoing,
  type SendOptions,
  type Transport,
  parseJson,
  refuseHttpOnly,
} from './transports.js';

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

/**
 * What Slack answers apps.connections.open for a token it does not take (the method's documented errors); a
 * test picks one for the app-level token (not_allowed_token_type is what a bot or user token gets).
 */
export type AppTokenRefusal =
  | 'token_revoked'
  | 'token_expired'
  | 'missing_scope'
  | 'not_allowed_token_type'
  | 'invalid_auth'
  | 'account_inactive';

/** The scope apps.connections.open needs; Slack names it (`needed`) when a token lacks it. */
const CONNECTIONS_SCOPE = 'connections:write';

/** Slack waits this long for an envelope's ack, in ms (the 3 s rule). */
export const SOCKET_ACK_TIMEOUT_MS = 3_000;
const LINK_PATH = '/link/';

interface Waiting {
  resolve: (payload: Obj | undefined) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class SocketModeEndpoint {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly open = new Set<WebSocket>();
  private readonly waiting = new Map<string, Waiting>();
  private readonly connectionWaiters: { count: number; resolve: () => void }[] = [];
  private refusal: AppTokenRefusal | undefined;
  /** Connections that got their `hello` so far. */
  connections = 0;

  constructor(
    server: Server,
    private readonly opts: { origin: string; appId: string; appToken: string | undefined },
  ) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(req, socket, head),
    );
  }

  /** apps.connections.open, with the request's token already extracted. */
  connectionsOpen(token: string | undefined, botToken: string): ApiBody {
    if (!token) return fail('not_authed');
    if (token === botToken) return fail('not_allowed_token_type');
    if (!this.opts.appToken || token !== this.opts.appToken) return fail('invalid_auth');
    if (this.refusal === 'missing_scope') {
      return { ...fail('missing_scope'), needed: CONNECTIONS_SCOPE, provided: 'authorizations:read' };
    }
    if (this.refusal) return fail(this.refusal);
    const ticket = randomBytes(16).toString('hex');
    this.tickets.add(ticket);
    const url = `${this.opts.origin.replace(/^http/, 'ws')}${LINK_PATH}?ticket=${ticket}&app_id=${this.opts.appId}`;
    return { ok: true, url };
  }

  /**
   * From now on apps.connections.open refuses the app-level token with `refusal` (a token revoked or expired
   * stays so for every later call, as Slack's does); `undefined` takes it again. Open connections stay open.
   */
  refuseAppToken(refusal: AppTokenRefusal | undefined): void {
    this.refusal = refusal;
  }

  /** Resolves once `count` connections in total have said hello (e.g. 2 after a reconnect). */
  waitForConnections(count: number): Promise<void> {
    if (this.connections >= count) return Promise.resolve();
    return new Promise((resolve) => this.connectionWaiters.push({ count, resolve }));
  }

  /** Sends an envelope on the newest open connection; resolves with the ack's payload (undefined when none). */
  deliver(type: EnvelopeType, payload: unknown, extra: Obj = {}): Promise<Obj | undefined> {
    const socket = [...this.open].pop();
    if (!socket) return Promise.reject(new StandinError('no_socket', 'no Socket Mode connection is open'));
    const envelopeId = randomBytes(12).toString('hex');
    const accepts = type === 'slash_commands' || (isObj(payload) && payload.type === 'view_submission');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(envelopeId);
        reject(new StandinError('not_acknowledged', `envelope ${envelopeId} got no ack within 3 s`));
      }, SOCKET_ACK_TIMEOUT_MS);
      this.waiting.set(envelopeId, { resolve, reject, timer });
      socket.send(
        JSON.stringify({
          envelope_id: envelopeId,
          type,
          payload,
          accepts_response_payload: accepts,
          ...extra,
        }),
      );
    });
  }

  /** Slack's `disconnect` message (reason `warning`, `refresh_requested` or `link_disabled`) on every connection. */
  disconnect(reason = 'refresh_requested'): void {
    for (const socket of this.open) {
      socket.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'standin' } }));
    }
  }

  async close(): Promise<void> {
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(new StandinError('standin_closed', 'the Slack stand-in was closed while waiting for an ack'));
    }
    this.waiting.clear();
    for (const socket of this.open) socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://standin');
    const ticket = url.searchParams.get('ticket') ?? '';
    // A socket URL works once, as Slack's do.
    if (url.pathname !== LINK_PATH || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws));
  }

  private connected(ws: WebSocket): void {
    this.open.add(ws);
    ws.on('close', () => this.open.delete(ws));
    ws.on('message', (data: Buffer) => this.acked(data.toString('utf8')));
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.open.size,
        debug_info: { host: 'standin', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.opts.appId },
      }),
    );
    this.connections += 1;
    for (const w of [...this.connectionWaiters]) {
      if (this.connections < w.count) continue;
      this.connectionWaiters.splice(this.connectionWaiters.indexOf(w), 1);
      w.resolve();
    }
  }

  private acked(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!isObj(message) || typeof message.envelope_id !== 'string') return;
    const waiting = this.waiting.get(message.envelope_id);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.waiting.delete(message.envelope_id);
    waiting.resolve(isObj(message.payload) ? message.payload : undefined);
  }
}

/** The driver's requests as Socket Mode envelopes; an ack counts as HTTP 200 with its payload as the body. */
export class SocketTransport implements Transport {
  constructor(private readonly endpoint: SocketModeEndpoint) {}

  async deliver(out: Outgoing, opts: SendOptions = {}): Promise<Delivery> {
    refuseHttpOnly(opts);
    const ack =
      'form' in out
        ? await this.endpoint.deliver('slash_commands', out.form)
        : 'payload' in out
          ? await this.endpoint.deliver('interactive', out.payload)
          : await this.endpoint.deliver('events_api', out.json, {
              retry_attempt: opts.retry?.num ?? 0,
              retry_reason: opts.retry?.reason ?? '',
            });
    const body = ack && Object.keys(ack).length > 0 ? JSON.stringify(ack) : '';
    return { status: 200, body, ...parseJson(body) };
  }
}
