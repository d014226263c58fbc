// One MCP client connection to one server, for one person (or for the server's control link), running at
// most one tool call at a time: so every elicitation that arrives on it belongs to that call (see pool.ts).
import type { ClientCapabilities, PriorDiscovery, Tool } from '@modelcontextprotocol/client';
import type { LeavingRounds } from './leaving-rounds.js';
import { CallRun, TOOL_TIMEOUT_MARGIN_MS } from './call.js';
import type { Clock } from '../clock.js';
import { RelayClient } from './elicitation.js';
import { Handshake, openFailure, sdkProbeTimeoutMs, type SignInPauses } from './handshake.js';
import { answersWithin, LivenessCheck } from './liveness.js';
import { SessionQuestions } from './questions.js';
import { callError, isInvalidResult, urlRequiredResult } from './results.js';
import type { OutputChecks } from './output-check.js';
import { listedTools, type ToolListing } from './tool-listing.js';
import { ToolRunner, type Successor } from './tool-run.js';
import { refusesStreamableHttp } from './transport.js';
import { needsSignIn, type SessionAuth } from './auth/sign-in.js';
import {
  McpClientError,
  type ElicitationMode,
  type ElicitationSink,
  type McpLogger,
  type McpServerSpec,
  type McpTransport,
  type ServerInfo,
  type ToolCall,
  type ToolResult,
  type ToolSummary,
} from './types.js';
import type { Origin } from '../relay/types.js';

export interface SessionOptions {
  spec: McpServerSpec;
  /** The person this session works for; undefined for the control link, which runs no tool calls. */
  person: Origin | undefined;
  sink: ElicitationSink;
  clientInfo: { name: string; version: string };
  transport: McpTransport;
  /** Tried with a fresh client when `transport` is Streamable HTTP and the server refuses it (400/404/405). */
  fallback?: () => McpTransport;
  clock: Clock;
  /** The server's compiled outputSchemas (one per server, output-check.ts): its listing's and its calls'. */
  outputs: OutputChecks;
  /**
   * Called once when an opened session ends, whichever side ended it; `dropped` is true when the
   * connection ended on its own rather than by close(). Not called when open() rejects.
   */
  onClosed: (dropped: boolean) => void;
  /** The server sent `notifications/tools/list_changed`. */
  onToolsChanged?: () => void;
  /** The server's era as an earlier connection found it: connect without probing again. */
  prior?: PriorDiscovery;
  logger?: McpLogger;
  /** The session's sign-in, for a server with `auth`: the hub waits on it after an UnauthorizedError. */
  auth?: SessionAuth;
  /** Its HTTP transports' reports of signing in, which pause the handshake's bound (handshake.ts). */
  signIns?: SignInPauses;
  /** Aborted, the handshake under way ends at once (handshake.ts: Handshake). */
  signal?: AbortSignal;
  /** Where durable calls keep their 2026 rounds (McpHubOptions.rounds). */
  rounds?: LeavingRounds;
}

export class McpSession {
  private current: CallRun | undefined;
  private closed = false;
  /** After a transport error: a server that no longer answers has its connection closed (liveness.ts). */
  private readonly liveness: LivenessCheck;
  private readonly questions: SessionQuestions;
  private readonly tools: ToolRunner;
  private end: () => void = () => undefined;
  /** Where a call outliving this session's connection goes on (its pool's, succeededBy); none: it fails. */
  private successor: (signal: AbortSignal) => Promise<Successor> = () => Promise.reject(this.closedError());

  private constructor(
    private readonly client: RelayClient,
    private readonly opts: SessionOptions,
  ) {
    this.liveness = new LivenessCheck(client, opts.spec.name, opts.logger);
    this.questions = new SessionQuestions({
      spec: opts.spec,
      person: opts.person,
      sink: opts.sink,
      current: () => this.current,
      ended: new Promise<void>((resolve) => (this.end = resolve)),
      serverInfo: () => this.serverInfo,
      ...(opts.logger === undefined ? {} : { logger: opts.logger }),
    });
    this.tools = new ToolRunner({
      client,
      spec: opts.spec,
      clock: opts.clock,
      outputs: opts.outputs,
      questions: this.questions,
      isClosed: () => this.closed,
      successor: (signal) => this.successor(signal),
      ...(opts.rounds === undefined ? {} : { rounds: opts.rounds }),
      ...(opts.logger === undefined ? {} : { logger: opts.logger }),
    });
  }

  /** Connects and completes the handshake in time, a fallback in the same bound; throws as openFailure says. */
  static async open(opts: SessionOptions): Promise<McpSession> {
    const handshake = new Handshake(opts);
    try {
      return await McpSession.connect(opts, opts.transport, handshake);
    } catch (error) {
      if (opts.fallback === undefined || !refusesStreamableHttp(error)) throw openFailure(error, opts);
      opts.logger?.debug({ server: opts.spec.name }, 'Streamable HTTP refused; trying legacy HTTP+SSE');
      return await McpSession.connect(opts, opts.fallback(), handshake).catch((fallbackError: unknown) => {
        throw openFailure(fallbackError, opts);
      });
    } finally {
      handshake.end();
    }
  }

  private static async connect(opts: SessionOptions, transport: McpTransport, handshake: Handshake) {
    const mode = opts.spec.elicitationMode ?? 'form';
    // The capability must be declared before the handler is registered (the SDK throws otherwise).
    // 'auto' asks `server/discover` first, so 2026-07-28 servers are spoken to in their era and 2025
    // servers (which do not know the method) through `initialize`, as before.
    const client = new RelayClient(opts.clientInfo, {
      capabilities: capabilities(mode),
      versionNegotiation: { mode: 'auto', probe: { timeoutMs: sdkProbeTimeoutMs(opts.spec) } },
      // The hub runs a 2026 server's input rounds itself (rounds.ts).
      inputRequired: { autoFulfill: false },
      jsonSchemaValidator: opts.outputs.notes.clientValidator(),
    });
    const session = new McpSession(client, opts);
    session.questions.register(client);
    client.setNotificationHandler('notifications/tools/list_changed', () => opts.onToolsChanged?.());
    try {
      await handshake.connect(client, transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    // Set only now, so that a failed connect (already reported by the rejection) never calls onClosed.
    client.onclose = () => session.markClosed(true);
    // A 401 (UnauthorizedError) is the request's own to handle by signing in, not a sign the server is gone:
    // a liveness ping would meet the same 401 and start a second sign-in behind the person's back.
    client.onerror = (error) => {
      if (!needsSignIn(error) && !session.closed) session.liveness.start();
    };
    return session;
  }

  get auth(): SessionAuth | undefined {
    return this.opts.auth;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The protocol revision this connection negotiated (e.g. '2025-11-25', '2026-07-28'). */
  get protocolVersion(): string | undefined {
    return this.client.getNegotiatedProtocolVersion();
  }

  /** The server's era as this connection found it, for later connections to skip the probe. */
  get era(): PriorDiscovery | undefined {
    if (this.client.getProtocolEra() === 'legacy') return { kind: 'legacy' };
    const discover = this.client.getDiscoverResult();
    return discover === undefined ? undefined : { kind: 'modern', discover };
  }

  /** What the server said about itself in `initialize` (or `server/discover`). */
  get serverInfo(): ServerInfo | undefined {
    const info = this.client.getServerVersion();
    if (info === undefined) return undefined;
    return {
      name: info.name,
      version: info.version,
      ...(info.title === undefined ? {} : { title: info.title }),
    };
  }

  /** The pool that holds this session gives a call that outlives its connection a fresh session of its own. */
  succeededBy(next: (signal: AbortSignal) => Promise<Successor>): void {
    this.successor = next;
  }

  /**
   * This connection, for the rest of another session's 2026 call (pool.ts). A server replaced by a 2025 one
   * cannot take a round's retry: 'round_expired', so the person starts again.
   */
  lend(): Omit<Successor, 'release'> {
    this.assertOpen();
    const server = this.opts.spec.name;
    if (this.client.getProtocolEra() === 'modern')
      return { client: this.client, isClosed: () => this.closed };
    throw new McpClientError('round_expired', server, `${server} no longer speaks revision 2026-07-28`);
  }

  /**
   * Runs one tool call; the session runs one at a time (the pool leases it to one caller). `definition`: the
   * tool as listed, against whose outputSchema a 2025 call's result is checked (tool-run.ts).
   */
  async run(call: ToolCall, tool: ToolSummary | undefined, definition?: Tool): Promise<ToolResult> {
    this.assertOpen();
    if (this.current !== undefined) throw new Error(`session to ${this.opts.spec.name} is already busy`);
    const run = new CallRun(
      call,
      this.opts.spec.elicitationTimeoutMs + TOOL_TIMEOUT_MARGIN_MS,
      this.opts.clock,
    );
    this.current = run;
    try {
      return await this.tools.run(call, run, tool, definition);
    } catch (error) {
      const urlRequired = urlRequiredResult(error);
      if (urlRequired !== undefined) return urlRequired;
      throw this.failure(error, run, `tool ${call.tool}`);
    } finally {
      run.end();
      this.questions.callEnded(run);
      this.current = undefined;
    }
  }

  async listTools(): Promise<ToolListing> {
    this.assertOpen();
    try {
      const { spec, clock, logger } = this.opts;
      return await listedTools(this.client, spec.name, clock.schedule, this.opts.outputs, logger);
    } catch (error) {
      throw this.failure(error, undefined, 'tools/list');
    }
  }

  /**
   * Fails (McpClientError) when the server does not answer within `timeoutMs`: a ping, or for a 2026-07-28
   * server (which has no ping) a `server/discover`.
   */
  async ping(timeoutMs: number): Promise<void> {
    this.assertOpen();
    try {
      await answersWithin(this.client, timeoutMs);
    } catch (error) {
      throw this.failure(error, undefined, 'ping');
    }
  }

  async close(): Promise<void> {
    this.markClosed(false);
    await this.client.close();
  }

  /** Maps a failed request; a transport that failed under us ends the session, so the next call gets a new one. */
  private failure(error: unknown, run: CallRun | undefined, what: string): McpClientError {
    const server = this.opts.spec.name;
    const failure = callError(error, server, what, run, this.closed);
    if (isInvalidResult(error)) this.opts.logger?.warn({ server, err: error }, `${what}: invalid result`);
    if (failure.code === 'session_expired' || failure.code === 'connection_closed') {
      this.markClosed(true);
      void this.client.close().catch(() => undefined);
    }
    return failure;
  }

  private assertOpen(): void {
    if (this.closed) throw this.closedError();
  }

  private closedError(): McpClientError {
    const server = this.opts.spec.name;
    return new McpClientError('connection_closed', server, `session to ${server} closed`);
  }

  private markClosed(dropped: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.end();
    this.opts.onClosed(dropped);
  }
}

function capabilities(mode: ElicitationMode): ClientCapabilities {
  return mode === 'off' ? {} : { elicitation: { form: { applyDefaults: true }, url: {} } };
}
