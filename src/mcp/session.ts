// One MCP client connection to one server on behalf of one Slack user (see hub.ts for why).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CancelledNotificationSchema,
  ElicitationCompleteNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
  type RequestId,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { parseElicitation, RawElicitRequestSchema, toElicitResult, toRpcError } from './elicitation.js';
import { toClientError, toToolResult, urlRequiredResult } from './results.js';
import {
  McpClientError,
  type ElicitationMode,
  type ElicitationSink,
  type McpLogger,
  type McpServerSpec,
  type McpTransport,
  type ProgressUpdate,
  type ServerInfo,
  type ToolResult,
  type ToolSummary,
} from './types.js';
import type { Origin } from '../relay/types.js';

/** Added to the server's elicitation timeout for a tool call's own timeout, in milliseconds. */
export const TOOL_TIMEOUT_MARGIN_MS = 30_000;

/** Schedules `fn` after `ms` milliseconds; returns a function that cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void;

export interface SessionOptions {
  spec: McpServerSpec;
  /** The person (and workspace) this session works for. */
  person: Origin;
  sink: ElicitationSink;
  clientInfo: { name: string; version: string };
  transport: McpTransport;
  idleCloseMs: number;
  schedule: Schedule;
  /**
   * Called once when an opened session ends, whichever side ended it; `dropped` is true when the
   * connection ended on its own rather than by close(). Not called when open() rejects.
   */
  onClosed: (dropped: boolean) => void;
  /** The server sent `notifications/tools/list_changed`. */
  onToolsChanged?: () => void;
  logger?: McpLogger;
}

export class McpSession {
  private inFlight = 0;
  /** Origins of the tool calls in flight; an elicitation is attributed to the call when it is the only one. */
  private readonly calls = new Set<Origin>();
  private cancelIdle: (() => void) | undefined;
  private closed = false;
  /**
   * SDK 1.32.2 ignores notifications/cancelled for request id 0 (`if (!requestId) return`), and a
   * server's first request on a connection has id 0; so cancellation is tracked here, for every id.
   */
  private readonly cancels = new Map<RequestId, AbortController>();
  private readonly ended: Promise<void>;
  private end: () => void = () => undefined;

  private constructor(
    private readonly client: Client,
    private readonly opts: SessionOptions,
  ) {
    this.ended = new Promise((resolve) => (this.end = resolve));
  }

  /** Connects and completes the initialize handshake; throws McpClientError 'connect_failed'. */
  static async open(opts: SessionOptions): Promise<McpSession> {
    const mode = opts.spec.elicitationMode ?? 'form';
    // The capability must be declared before the handler is registered (the SDK throws otherwise).
    const client = new Client(opts.clientInfo, { capabilities: capabilities(mode) });
    const session = new McpSession(client, opts);
    session.register(mode);
    try {
      await client.connect(opts.transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpClientError('connect_failed', opts.spec.name, `could not connect to ${opts.spec.name}`, {
        cause: error,
      });
    }
    // Set only now, so that a failed connect (already reported by the rejection) never calls onClosed.
    client.onclose = () => session.markClosed(true);
    session.scheduleIdleClose();
    return session;
  }

  /** What the server said about itself in `initialize`. */
  get serverInfo(): ServerInfo | undefined {
    const info = this.client.getServerVersion();
    if (info === undefined) return undefined;
    return {
      name: info.name,
      version: info.version,
      ...(info.title === undefined ? {} : { title: info.title }),
    };
  }

  async callTool(
    tool: string,
    args: Record<string, unknown>,
    origin: Origin,
    call: { signal?: AbortSignal; onProgress?: (update: ProgressUpdate) => void } = {},
  ): Promise<ToolResult> {
    const { signal, onProgress } = call;
    const options = {
      // The person's time to answer an elicitation counts against this call, so it must outlast it.
      timeout: this.opts.spec.elicitationTimeoutMs + TOOL_TIMEOUT_MARGIN_MS,
      resetTimeoutOnProgress: true,
      // Without a progress handler the SDK sends no progressToken, and servers send no progress.
      onprogress: ({ progress, total, message }: ProgressUpdate) =>
        onProgress?.({
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        }),
      ...(signal === undefined ? {} : { signal }),
    };
    // A fresh object per call, so two calls with equal origins are still two entries.
    const entry = { ...origin };
    this.calls.add(entry);
    try {
      const result = await this.track(`tool ${tool}`, signal, async () => {
        try {
          return toToolResult(
            await this.client.callTool({ name: tool, arguments: args }, undefined, options),
          );
        } catch (error) {
          const urlRequired = urlRequiredResult(error);
          if (urlRequired === undefined) throw error;
          return urlRequired;
        }
      });
      return result;
    } finally {
      this.calls.delete(entry);
    }
  }

  async listTools(): Promise<ToolSummary[]> {
    const { tools } = await this.track('tools/list', undefined, () => this.client.listTools());
    return tools.map(toSummary);
  }

  async close(): Promise<void> {
    this.markClosed(false);
    await this.client.close();
  }

  /**
   * With mode 'off' no elicitation handler exists, so the SDK answers a request anyway with -32601.
   * Completion notifications only matter when the sink was asked, i.e. in mode 'form'.
   */
  private register(mode: ElicitationMode): void {
    this.client.setNotificationHandler(CancelledNotificationSchema, ({ params }) => {
      if (params.requestId !== undefined) this.cancels.get(params.requestId)?.abort(params.reason);
    });
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.opts.onToolsChanged?.());
    if (mode === 'off') return;
    this.client.setRequestHandler(RawElicitRequestSchema, (request, extra) =>
      mode === 'decline'
        ? this.decline(request.params)
        : this.answer(request.params, extra.requestId, extra.signal),
    );
    if (mode !== 'form') return;
    this.client.setNotificationHandler(ElicitationCompleteNotificationSchema, ({ params }) =>
      this.completed(params.elicitationId),
    );
  }

  /** Policy 'decline': still -32602 for an invalid request (parseElicitation throws), else decline. */
  private decline(params: unknown): Promise<{ action: 'decline' }> {
    parseElicitation(params);
    return Promise.resolve({ action: 'decline' });
  }

  /** The single in-flight call's origin; with none or several, only the session's person is certain. */
  private currentOrigin(): Origin {
    const [only, ...others] = this.calls;
    return only !== undefined && others.length === 0 ? only : this.opts.person;
  }

  private completed(elicitationId: string): void {
    const ctx = { server: this.opts.spec.name, origin: this.currentOrigin() };
    try {
      this.opts.sink.complete?.(elicitationId, ctx);
    } catch (error) {
      this.opts.logger?.warn({ ...ctx, elicitationId, err: error }, 'elicitation complete failed in sink');
    }
  }

  private async answer(params: unknown, id: RequestId, connection: AbortSignal) {
    const request = parseElicitation(params);
    const cancel = new AbortController();
    this.cancels.set(id, cancel);
    const signal = AbortSignal.any([connection, cancel.signal]);
    const serverInfo = this.serverInfo;
    const ctx = {
      server: this.opts.spec.name,
      origin: this.currentOrigin(),
      signal,
      ...(serverInfo === undefined ? {} : { serverInfo }),
    };
    try {
      const result = toElicitResult(await this.opts.sink.ask(request, ctx), request.mode);
      // No response to a cancelled request (spec); the SDK drops it once the session has closed.
      if (cancel.signal.aborted) await this.ended;
      return result;
    } catch (error) {
      this.opts.logger?.warn(
        { server: ctx.server, userId: ctx.origin.userId, err: error },
        'elicitation sink failed',
      );
      if (cancel.signal.aborted) await this.ended;
      throw toRpcError(error);
    } finally {
      this.cancels.delete(id);
    }
  }

  /** Counts the request as in flight (no idle close meanwhile) and maps its failure to McpClientError. */
  private async track<T>(what: string, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    if (this.closed) {
      throw new McpClientError(
        'connection_closed',
        this.opts.spec.name,
        `session to ${this.opts.spec.name} closed`,
      );
    }
    this.inFlight += 1;
    this.cancelIdle?.();
    try {
      return await run();
    } catch (error) {
      throw toClientError(error, this.opts.spec.name, what, signal);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.scheduleIdleClose();
    }
  }

  private scheduleIdleClose(): void {
    if (this.closed) return;
    this.cancelIdle = this.opts.schedule(() => {
      if (this.inFlight === 0) void this.close().catch(() => undefined);
    }, this.opts.idleCloseMs);
  }

  private markClosed(dropped: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.end();
    this.cancelIdle?.();
    this.opts.onClosed(dropped);
  }
}

function toSummary(tool: Tool): ToolSummary {
  const summary: ToolSummary = { name: tool.name, inputSchema: tool.inputSchema };
  const title = tool.title ?? tool.annotations?.title;
  if (title !== undefined) summary.title = title;
  if (tool.description !== undefined) summary.description = tool.description;
  const taskSupport = tool.execution?.taskSupport;
  if (taskSupport === 'optional' || taskSupport === 'required') summary.taskSupport = taskSupport;
  return summary;
}

function capabilities(mode: ElicitationMode): ClientCapabilities {
  return mode === 'off' ? {} : { elicitation: { form: { applyDefaults: true }, url: {} } };
}
