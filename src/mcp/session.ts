// One MCP client connection to one server, for one person (or for the server's control link), running at
// most one tool call at a time: so every elicitation that arrives on it belongs to that call (see pool.ts).
import {
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type ClientCapabilities,
  type ClientContext,
  type ElicitResult,
  type PriorDiscovery,
  type RequestId,
  type RequestOptions,
} from '@modelcontextprotocol/client';
import { CallRun, TOOL_TIMEOUT_MARGIN_MS, type WithdrawReason } from './call.js';
import type { Clock } from '../clock.js';
import {
  parseElicitation,
  RAW_ELICIT_PARAMS,
  RelayClient,
  RpcRefusal,
  toElicitResult,
  toRpcError,
} from './elicitation.js';
import { callWithRounds, DEFAULT_MAX_ROUNDS, onlyElicitation } from './rounds.js';
import { cancelToolTask, runToolTask } from './tasks.js';
import { callError, toSummary, toToolResult, urlRequiredResult } from './results.js';
import { refusesStreamableHttp } from './transport.js';
import {
  McpClientError,
  type ElicitationContext,
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

/**
 * How long a server has to answer the era probe (`server/discover`), in ms. Over stdio silence means a
 * 2025 server (the SDK then falls back to `initialize`); over HTTP it is an outage (connect fails).
 */
const PROBE_TIMEOUT_MS = 10_000;

/** The SDK's per-request timeout is replaced by the call's own timers (call.ts); 2^31 - 1 ms is its ceiling. */
const NO_SDK_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * After a transport error, how long the server has to answer a ping before the session is given up, in ms.
 * A Streamable HTTP stream that breaks without a resumable event id only raises an error in the SDK: the
 * request it carried would wait forever. A server that still answers keeps the session (its stream may be
 * resumed); one that does not is gone, and closing the session fails its call at once.
 */
const LIVENESS_PING_MS = 5_000;

/** Sent with -32600 for an elicitation no tool call of this client caused (and no `unsolicited` route). */
export const UNSOLICITED_REFUSAL =
  'No tool call of this client is in flight to ask for: elicitations outside a tool call are refused';

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
}

export class McpSession {
  private current: CallRun | undefined;
  private closed = false;
  private checkingLiveness = false;
  /**
   * SDK 1.32.2 ignored notifications/cancelled for request id 0 (a server's first request on a
   * connection), so cancellation is tracked here, for every id; the withdraw reason is the relay's own.
   */
  private readonly cancels = new Map<RequestId, AbortController>();
  private readonly ended: Promise<void>;
  private end: () => void = () => undefined;

  private constructor(
    private readonly client: RelayClient,
    private readonly opts: SessionOptions,
  ) {
    this.ended = new Promise((resolve) => (this.end = resolve));
  }

  /** Connects and completes the initialize handshake; throws McpClientError 'connect_failed'. */
  static async open(opts: SessionOptions): Promise<McpSession> {
    try {
      return await McpSession.connect(opts, opts.transport);
    } catch (error) {
      if (opts.fallback === undefined || !refusesStreamableHttp(error)) throw failedToConnect(opts, error);
      opts.logger?.debug({ server: opts.spec.name }, 'Streamable HTTP refused; trying legacy HTTP+SSE');
      try {
        return await McpSession.connect(opts, opts.fallback());
      } catch (fallbackError) {
        throw failedToConnect(opts, fallbackError);
      }
    }
  }

  private static async connect(opts: SessionOptions, transport: McpTransport): Promise<McpSession> {
    const mode = opts.spec.elicitationMode ?? 'form';
    // The capability must be declared before the handler is registered (the SDK throws otherwise).
    // 'auto' asks `server/discover` first, so 2026-07-28 servers are spoken to in their era and 2025
    // servers (which do not know the method) through `initialize`, as before.
    const client = new RelayClient(opts.clientInfo, {
      capabilities: capabilities(mode),
      versionNegotiation: { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } },
      // The hub runs a 2026 server's input rounds itself (rounds.ts).
      inputRequired: { autoFulfill: false },
    });
    const session = new McpSession(client, opts);
    session.register(mode);
    try {
      await client.connect(transport, opts.prior === undefined ? undefined : { prior: opts.prior });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    // Set only now, so that a failed connect (already reported by the rejection) never calls onClosed.
    client.onclose = () => session.markClosed(true);
    client.onerror = () => session.checkLiveness();
    return session;
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

  /** Runs one tool call; the session runs one at a time (the pool leases it to one caller). */
  async run(call: ToolCall, tool: ToolSummary | undefined): Promise<ToolResult> {
    this.assertOpen();
    if (this.current !== undefined) throw new Error(`session to ${this.opts.spec.name} is already busy`);
    const run = new CallRun(
      call,
      this.opts.spec.elicitationTimeoutMs + TOOL_TIMEOUT_MARGIN_MS,
      this.opts.clock,
    );
    this.current = run;
    try {
      return this.asTask(tool) ? await this.runTask(call, run) : await this.runPlain(call, run);
    } catch (error) {
      const urlRequired = urlRequiredResult(error);
      if (urlRequired !== undefined) return urlRequired;
      throw this.failure(error, run, `tool ${call.tool}`);
    } finally {
      run.end();
      this.current = undefined;
    }
  }

  async listTools(): Promise<ToolSummary[]> {
    this.assertOpen();
    try {
      const { tools } = await this.client.listTools();
      return tools.map(toSummary);
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
      if (this.client.getProtocolEra() === 'modern') await this.client.discover({ timeout: timeoutMs });
      else await this.client.ping({ timeout: timeoutMs });
    } catch (error) {
      throw this.failure(error, undefined, 'ping');
    }
  }

  async close(): Promise<void> {
    this.markClosed(false);
    await this.client.close();
  }

  private requestOptions(run: CallRun): RequestOptions {
    return {
      timeout: NO_SDK_TIMEOUT_MS,
      signal: run.signal,
      // Also makes the SDK send a progressToken; without a handler servers send no progress.
      onprogress: (update) => run.progress(update),
    };
  }

  private async runPlain(call: ToolCall, run: CallRun): Promise<ToolResult> {
    const params = { name: call.tool, arguments: call.args };
    if (this.client.getProtocolEra() !== 'modern') {
      return toToolResult(await this.client.callTool(params, this.requestOptions(run)));
    }
    const server = this.opts.spec.name;
    const result = await callWithRounds(this.client, params, {
      server,
      maxRounds: this.opts.spec.maxRounds ?? DEFAULT_MAX_ROUNDS,
      request: this.requestOptions(run),
      answer: (key, request) => this.answerInput(onlyElicitation(server, request), key, run),
    });
    return toToolResult(result);
  }

  /** One entry of a 2026 round, a question of `run` like a 2025 `elicitation/create` (policy included). */
  private async answerInput(params: unknown, key: string, run: CallRun): Promise<ElicitResult> {
    const mode = this.opts.spec.elicitationMode ?? 'form';
    if (mode === 'off') {
      const server = this.opts.spec.name;
      throw new McpClientError(
        'tool_failed',
        server,
        `${server} asked a question, but its elicitation is off`,
      );
    }
    return mode === 'decline' ? this.decline(params) : this.answer(params, key, run.signal, run);
  }

  /** Task-augmented (revision 2025-11-25, see tasks.ts); the task is cancelled when the call is abandoned. */
  private async runTask(call: ToolCall, run: CallRun): Promise<ToolResult> {
    const params = { name: call.tool, arguments: call.args };
    const onAbort = (): void => this.cancelTask(run.taskId);
    run.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const options = { ...this.requestOptions(run), signal: run.signal };
      const result = await runToolTask(this.client, params, options, this.opts.clock, {
        created: (taskId) => (run.taskId = taskId),
        status: (message) => run.taskStatus(message),
      });
      return toToolResult(result);
    } finally {
      run.signal.removeEventListener('abort', onAbort);
    }
  }

  private cancelTask(taskId: string | undefined): void {
    if (taskId === undefined || this.closed) return;
    cancelToolTask(this.client, taskId).catch((error: unknown) => {
      this.opts.logger?.debug({ server: this.opts.spec.name, taskId, err: error }, 'tasks/cancel failed');
    });
  }

  /** As a task when the tool must be, or may be and the server runs tool calls as tasks. */
  private asTask(tool: ToolSummary | undefined): boolean {
    if (tool?.taskSupport === 'required') return true;
    const supported = this.client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
    return tool?.taskSupport === 'optional' && supported;
  }

  /** Maps a failed request; a transport that failed under us ends the session, so the next call gets a new one. */
  private failure(error: unknown, run: CallRun | undefined, what: string): McpClientError {
    const failure = callError(error, this.opts.spec.name, what, run);
    if (failure.code === 'session_expired' || failure.code === 'connection_closed') {
      this.markClosed(true);
      void this.client.close().catch(() => undefined);
    }
    return failure;
  }

  private assertOpen(): void {
    if (!this.closed) return;
    const server = this.opts.spec.name;
    throw new McpClientError('connection_closed', server, `session to ${server} closed`);
  }

  /**
   * With mode 'off' no elicitation handler exists, so the SDK answers a request anyway with -32601.
   * Completion notifications only matter when the sink was asked, i.e. in mode 'form'.
   */
  private register(mode: ElicitationMode): void {
    this.client.setNotificationHandler('notifications/cancelled', ({ params }) => {
      const withdrawn: WithdrawReason = 'withdrawn';
      if (params.requestId !== undefined) this.cancels.get(params.requestId)?.abort(withdrawn);
    });
    this.client.setNotificationHandler('notifications/tools/list_changed', () =>
      this.opts.onToolsChanged?.(),
    );
    if (mode === 'off') return;
    this.client.setRequestHandler('elicitation/create', RAW_ELICIT_PARAMS, (params, ctx) =>
      mode === 'decline'
        ? this.decline(params)
        : this.answer(params, ctx.mcpReq.id, ctx.mcpReq.signal, this.runFor(relatedTask(ctx))),
    );
    if (mode !== 'form') return;
    this.client.setNotificationHandler('notifications/elicitation/complete', ({ params }) =>
      this.completed(params.elicitationId),
    );
  }

  /** Policy 'decline': still -32602 for an invalid request (parseElicitation throws), else decline. */
  private decline(params: unknown): Promise<{ action: 'decline' }> {
    parseElicitation(params);
    return Promise.resolve({ action: 'decline' });
  }

  /**
   * The call an elicitation belongs to: the one in flight (a session runs one at a time), unless the request
   * names a task (related-task metadata) that is not that call's, which makes it nobody's call.
   */
  private runFor(taskId: string | undefined): CallRun | undefined {
    const run = this.current;
    if (taskId === undefined || run?.taskId === undefined || run.taskId === taskId) return run;
    return undefined;
  }

  private completed(elicitationId: string): void {
    const origin = this.current?.origin ?? this.opts.person;
    if (origin === undefined) return;
    const ctx = { server: this.opts.spec.name, origin };
    try {
      this.opts.sink.complete?.(elicitationId, ctx);
    } catch (error) {
      this.opts.logger?.warn({ ...ctx, elicitationId, err: error }, 'elicitation complete failed in sink');
    }
  }

  /**
   * One question: a 2025 server's `elicitation/create` (`id` its JSON-RPC id, `connection` aborting when
   * the connection ends), or one `inputRequests` entry of a 2026 round (`id` its key, see rounds.ts).
   */
  private async answer(params: unknown, id: RequestId, connection: AbortSignal, run: CallRun | undefined) {
    const request = parseElicitation(params);
    // No call of ours caused it: the session's person (whoever called last) did not ask, so it is not theirs.
    const origin = run?.origin ?? this.opts.spec.unsolicitedTo;
    if (origin === undefined) {
      this.opts.logger?.warn({ server: this.opts.spec.name }, 'elicitation outside any tool call: refused');
      throw new RpcRefusal(ProtocolErrorCode.InvalidRequest, UNSOLICITED_REFUSAL);
    }
    const withdraw = new AbortController();
    this.cancels.set(id, withdraw);
    const onConnectionClosed = (): void => withdraw.abort('call_ended' satisfies WithdrawReason);
    connection.addEventListener('abort', onConnectionClosed, { once: true });
    const questionEnded = run?.questionOpened(withdraw);
    const ctx = this.context(origin, run, withdraw.signal);
    try {
      const outcome = await this.opts.sink.ask(request, ctx);
      const schema = request.mode === 'form' ? request.requestedSchema : undefined;
      const result = toElicitResult(outcome, request.mode, schema);
      return await this.unlessWithdrawn(withdraw.signal, result);
    } catch (error) {
      this.opts.logger?.warn(
        { server: ctx.server, userId: origin.userId, err: error },
        'elicitation sink failed',
      );
      await this.unlessWithdrawn(withdraw.signal, undefined);
      throw toRpcError(error);
    } finally {
      this.cancels.delete(id);
      connection.removeEventListener('abort', onConnectionClosed);
      questionEnded?.();
    }
  }

  /** No response to a request the server cancelled (spec): wait until the session ends instead. */
  private async unlessWithdrawn<T>(signal: AbortSignal, value: T): Promise<T> {
    if (signal.aborted && signal.reason === ('withdrawn' satisfies WithdrawReason)) await this.ended;
    return value;
  }

  private context(origin: Origin, run: CallRun | undefined, signal: AbortSignal): ElicitationContext {
    const configured = this.opts.spec.elicitationTimeoutMs;
    const serverInfo = this.serverInfo;
    return {
      server: this.opts.spec.name,
      origin,
      signal,
      timeoutMs: run ? run.questionTimeout(configured) : configured,
      ...(serverInfo === undefined ? {} : { serverInfo }),
    };
  }

  private checkLiveness(): void {
    if (this.closed || this.checkingLiveness) return;
    this.checkingLiveness = true;
    this.client
      .ping({ timeout: LIVENESS_PING_MS })
      .catch(async (error: unknown) => {
        this.opts.logger?.warn({ server: this.opts.spec.name, err: error }, 'MCP server stopped answering');
        await this.client.close();
      })
      .catch(() => undefined)
      .finally(() => (this.checkingLiveness = false));
  }

  private markClosed(dropped: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.end();
    this.opts.onClosed(dropped);
  }
}

function failedToConnect(opts: SessionOptions, error: unknown): McpClientError {
  const server = opts.spec.name;
  return new McpClientError('connect_failed', server, `could not connect to ${server}`, { cause: error });
}

/** The task a request says it belongs to (related-task metadata of revision 2025-11-25). */
function relatedTask(ctx: ClientContext): string | undefined {
  const related: unknown = ctx.mcpReq._meta?.[RELATED_TASK_META_KEY];
  if (typeof related !== 'object' || related === null || !('taskId' in related)) return undefined;
  return typeof related.taskId === 'string' ? related.taskId : undefined;
}

function capabilities(mode: ElicitationMode): ClientCapabilities {
  return mode === 'off' ? {} : { elicitation: { form: { applyDefaults: true }, url: {} } };
}
