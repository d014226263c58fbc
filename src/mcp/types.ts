// The words the rest of the bot uses to talk to MCP servers. Nothing outside src/mcp imports the SDK;
// the one SDK type that leaks (Transport, for the test factory) is re-exported here as McpTransport.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Outcome } from '../relay/types.js';

export type McpTransport = Transport;

export type McpTransportSpec =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string> };

export interface McpServerSpec {
  /** Configured server name (key of `mcpServers`). */
  name: string;
  transport: McpTransportSpec;
  /** How long a person may take to answer one elicitation from this server, in milliseconds. */
  elicitationTimeoutMs: number;
}

/** An `elicitation/create` request as the relay sees it; `requestedSchema` is the raw JSON the server sent. */
export type IncomingElicitation =
  | { mode: 'form'; message: string; requestedSchema: unknown }
  | { mode: 'url'; message: string; url: string; elicitationId: string };

export interface ElicitationContext {
  server: string;
  /** The Slack user whose session received the elicitation (see the session design in hub.ts). */
  userId: string;
  /** Aborts when the server sends notifications/cancelled for this elicitation or the connection closes. */
  signal: AbortSignal;
}

/** Implemented by the relay: returns exactly one outcome per elicitation. */
export interface ElicitationSink {
  ask(request: IncomingElicitation, ctx: ElicitationContext): Promise<Outcome>;
}

export interface ToolResult {
  isError: boolean;
  /** Text content joined by newlines; non-text content summarised, e.g. "[image]". */
  text: string;
  structured?: unknown;
}

/** Minimal structured logger (pino-compatible). */
export interface McpLogger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export type McpClientErrorCode =
  | 'unknown_server' // no server with that name is configured
  | 'connect_failed' // the transport or the initialize handshake failed
  | 'tool_failed' // the server answered the request with a JSON-RPC error
  | 'timeout' // no answer within the request timeout
  | 'connection_closed' // the session ended while the request was in flight
  | 'aborted' // the caller's signal aborted the request
  | 'closed'; // the hub is closed

export class McpClientError extends Error {
  override name = 'McpClientError';
  /** The JSON-RPC error code the server sent, for code 'tool_failed'. */
  readonly rpcCode: number | undefined;
  constructor(
    readonly code: McpClientErrorCode,
    readonly server: string,
    message: string,
    options?: { cause?: unknown; rpcCode?: number },
  ) {
    super(message, options);
    this.rpcCode = options?.rpcCode;
  }
}
