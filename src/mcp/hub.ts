// The bot's MCP client: the only door from the rest of the code to the configured MCP servers.
//
// Session design: nothing in MCP links an `elicitation/create` to the `tools/call` that caused it (the
// request carries no reference to it, outside the tasks flow). So the hub keeps ONE client session per
// (server, workspace, Slack user), opened lazily by that user's first call, and every elicitation arriving on
// a session is attributed to that session's user; while exactly one call is in flight on the session, to that
// call's origin (channel, thread) as well (ElicitationContext.origin). A stdio server therefore runs one child
// process per active user. A session is closed after `idleCloseMs` with no request in
// flight, when its connection drops (the next call reconnects), and on close().
import { HealthBook } from './status.js';
import { createTransport } from './transport.js';
import { McpSession, type Schedule } from './session.js';
import {
  McpClientError,
  type ElicitationSink,
  type McpLogger,
  type McpServerSpec,
  type McpTransport,
  type ServerStatus,
  type ToolCall,
  type ToolResult,
  type ToolSummary,
} from './types.js';
import type { Origin } from '../relay/types.js';

export interface McpHubOptions {
  servers: McpServerSpec[];
  sink: ElicitationSink;
  /** Sent in `initialize`; default `{ name: 'elicit-relay', version: '0.1.0' }`. */
  clientInfo?: { name: string; version: string };
  /** Builds a fresh transport for each new session; default: stdio or Streamable HTTP from the spec. */
  connect?: (spec: McpServerSpec) => McpTransport | Promise<McpTransport>;
  /** Close a per-user session after this many milliseconds with nothing in flight; default 10 minutes. */
  idleCloseMs?: number;
  /** Timer used for idle closing; default setTimeout (unref'd so it never keeps the process alive). */
  schedule?: Schedule;
  logger?: McpLogger;
}

const DEFAULT_IDLE_CLOSE_MS = 10 * 60_000;
/** The user a probe session is opened for; it never calls tools, so no elicitation names this user. */
const PROBE_PERSON: Origin = { userId: '(probe)' };

const defaultSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export class McpHub {
  private readonly specs: Map<string, McpServerSpec>;
  private readonly sessions = new Map<string, Promise<McpSession>>();
  /** Each server's tool list, fetched once and again after `notifications/tools/list_changed`. */
  private readonly tools = new Map<string, Promise<ToolSummary[]>>();
  private readonly health: HealthBook;
  private closed = false;

  constructor(private readonly opts: McpHubOptions) {
    this.specs = new Map(opts.servers.map((spec) => [spec.name, spec]));
    this.health = new HealthBook(this.serverNames());
  }

  serverNames(): string[] {
    return [...this.specs.keys()];
  }

  /** Every configured server's health, in configuration order (see ServerStatus). */
  status(): ServerStatus[] {
    return this.health.status();
  }

  /**
   * Opens a throwaway session (initialize handshake only) and closes it, so that status() reflects
   * whether the server is reachable now; resolves with that server's status, never rejects for a
   * server that is down. Use at start-up (without awaiting one server before the next) or for /readyz.
   */
  async probe(server: string): Promise<ServerStatus> {
    const spec = this.specFor(server);
    try {
      const session = await this.open(spec, PROBE_PERSON, () => undefined);
      await session.close();
    } catch {
      // The failure is recorded in the health book by open(); the status below carries it.
    }
    const status = this.status().find((s) => s.server === server);
    return status ?? { server, state: 'idle' };
  }

  async callTool(input: ToolCall): Promise<ToolResult> {
    const session = await this.session(input.server, input.origin);
    const { signal, onProgress } = input;
    return session.callTool(input.tool, input.args, input.origin, {
      ...(signal === undefined ? {} : { signal }),
      ...(onProgress === undefined ? {} : { onProgress }),
    });
  }

  /** The server's tools, from the hub's cache (one list per server, refreshed when the server says so). */
  async listTools(server: string, person: Origin): Promise<ToolSummary[]> {
    const cached = this.tools.get(server);
    if (cached !== undefined) return cached;
    const session = await this.session(server, person);
    return this.refreshTools(server, session);
  }

  /** Closes every session (stdio children exit); later calls fail with code 'closed'. */
  async close(): Promise<void> {
    this.closed = true;
    const opening = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(opening.map(async (session) => (await session).close()));
  }

  private refreshTools(server: string, session: McpSession): Promise<ToolSummary[]> {
    const listing = session.listTools();
    this.tools.set(server, listing);
    // A failed listing must not stay cached: the next caller asks again.
    void listing.catch(() => {
      if (this.tools.get(server) === listing) this.tools.delete(server);
    });
    return listing;
  }

  private specFor(server: string): McpServerSpec {
    const spec = this.specs.get(server);
    if (spec === undefined) {
      throw new McpClientError('unknown_server', server, `no MCP server named "${server}"`);
    }
    if (this.closed) throw new McpClientError('closed', server, 'the MCP hub is closed');
    return spec;
  }

  // Async only so that specFor's throw becomes a rejection; nothing is awaited before the map is updated.
  private async session(server: string, origin: Origin): Promise<McpSession> {
    const spec = this.specFor(server);
    const person: Origin = { userId: origin.userId, ...(origin.teamId ? { teamId: origin.teamId } : {}) };
    // JSON keeps any two (server, workspace, user) triples apart, whatever characters they contain.
    const key = JSON.stringify([server, person.teamId ?? '', person.userId]);
    const existing = this.sessions.get(key);
    if (existing !== undefined) return existing;
    const opening = this.open(spec, person, () => {
      if (this.sessions.get(key) === opening) this.sessions.delete(key);
    });
    this.sessions.set(key, opening);
    // A failed connect must not stay cached: the next call tries again.
    void opening.catch(() => {
      if (this.sessions.get(key) === opening) this.sessions.delete(key);
    });
    return opening;
  }

  /** Opens a session and keeps the server's health up to date with its outcome and its end. */
  private async open(spec: McpServerSpec, person: Origin, onClosed: () => void): Promise<McpSession> {
    try {
      const session = await this.openSession(spec, person, (dropped) => {
        this.health.closed(spec.name, dropped);
        onClosed();
      });
      this.health.opened(spec.name);
      return session;
    } catch (error) {
      this.health.failed(spec.name, error);
      throw error;
    }
  }

  private async openSession(
    spec: McpServerSpec,
    person: Origin,
    onClosed: (dropped: boolean) => void,
  ): Promise<McpSession> {
    let transport: McpTransport;
    try {
      transport = await (this.opts.connect ?? ((s) => createTransport(s, this.opts.logger)))(spec);
    } catch (error) {
      throw new McpClientError('connect_failed', spec.name, `could not build a transport for ${spec.name}`, {
        cause: error,
      });
    }
    return McpSession.open({
      spec,
      person,
      transport,
      onClosed,
      // Dropped, not refetched here: the next listTools() fetches the new list.
      onToolsChanged: () => this.tools.delete(spec.name),
      sink: this.opts.sink,
      clientInfo: this.opts.clientInfo ?? { name: 'elicit-relay', version: '0.1.0' },
      idleCloseMs: this.opts.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS,
      schedule: this.opts.schedule ?? defaultSchedule,
      ...(this.opts.logger === undefined ? {} : { logger: this.opts.logger }),
    });
  }
}
