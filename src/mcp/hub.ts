// The bot's MCP client: the only door from the rest of the code to the configured MCP servers.
//
// Session design: nothing in MCP links an `elicitation/create` to the `tools/call` that caused it (the
// request carries no reference to it, outside the tasks flow). So the hub keeps ONE client session per
// (server, Slack user), opened lazily by that user's first call, and every elicitation arriving on a
// session is attributed to that session's user (ElicitationContext.userId). A stdio server therefore
// runs one child process per active user. A session is closed after `idleCloseMs` with no request in
// flight, when its connection drops (the next call reconnects), and on close().
import { createTransport } from './transport.js';
import { McpSession, type Schedule } from './session.js';
import {
  McpClientError,
  type ElicitationSink,
  type McpLogger,
  type McpServerSpec,
  type McpTransport,
  type ToolResult,
} from './types.js';

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

const defaultSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export class McpHub {
  private readonly specs: Map<string, McpServerSpec>;
  private readonly sessions = new Map<string, Promise<McpSession>>();
  private closed = false;

  constructor(private readonly opts: McpHubOptions) {
    this.specs = new Map(opts.servers.map((spec) => [spec.name, spec]));
  }

  serverNames(): string[] {
    return [...this.specs.keys()];
  }

  async callTool(input: {
    server: string;
    tool: string;
    args: Record<string, unknown>;
    userId: string;
    signal?: AbortSignal;
  }): Promise<ToolResult> {
    const session = await this.session(input.server, input.userId);
    return session.callTool(input.tool, input.args, input.signal);
  }

  async listTools(server: string, userId: string): Promise<{ name: string; description?: string }[]> {
    const session = await this.session(server, userId);
    return session.listTools();
  }

  /** Closes every session (stdio children exit); later calls fail with code 'closed'. */
  async close(): Promise<void> {
    this.closed = true;
    const opening = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(opening.map(async (session) => (await session).close()));
  }

  private session(server: string, userId: string): Promise<McpSession> {
    const spec = this.specs.get(server);
    if (spec === undefined) {
      return Promise.reject(new McpClientError('unknown_server', server, `no MCP server named "${server}"`));
    }
    if (this.closed) return Promise.reject(new McpClientError('closed', server, 'the MCP hub is closed'));
    // JSON keeps any two (server, user) pairs apart, whatever characters they contain.
    const key = JSON.stringify([server, userId]);
    const existing = this.sessions.get(key);
    if (existing !== undefined) return existing;
    const opening = this.open(spec, userId, () => {
      if (this.sessions.get(key) === opening) this.sessions.delete(key);
    });
    this.sessions.set(key, opening);
    // A failed connect must not stay cached: the next call tries again.
    void opening.catch(() => {
      if (this.sessions.get(key) === opening) this.sessions.delete(key);
    });
    return opening;
  }

  private async open(spec: McpServerSpec, userId: string, onClosed: () => void): Promise<McpSession> {
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
      userId,
      transport,
      onClosed,
      sink: this.opts.sink,
      clientInfo: this.opts.clientInfo ?? { name: 'elicit-relay', version: '0.1.0' },
      idleCloseMs: this.opts.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS,
      schedule: this.opts.schedule ?? defaultSchedule,
      ...(this.opts.logger === undefined ? {} : { logger: this.opts.logger }),
    });
  }
}
