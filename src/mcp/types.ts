// The words the rest of the bot uses to talk to MCP servers. Nothing outside src/mcp imports the SDK;
// the one SDK type that leaks (Transport, for the test factory) is re-exported here as McpTransport.
import type { Transport } from '@modelcontextprotocol/client';
import type { Origin, Outcome, RoundRef } from '../relay/types.js';

export type McpTransport = Transport;

/**
 * How to reach a server: a child process over stdio; Streamable HTTP (falling back to legacy HTTP+SSE
 * when the server refuses the initialize POST with 400, 404 or 405); or legacy HTTP+SSE only.
 */
export type McpTransportSpec =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string> }
  | { kind: 'sse'; url: string; headers: Record<string, string> };

/**
 * Per-server elicitation policy, enforced before anything reaches the sink:
 * - 'form' (default): form and URL modes are declared and every request goes to the sink;
 * - 'decline': both modes are declared, valid requests are answered `decline` without asking anyone;
 * - 'off': no elicitation capability is declared; a request anyway gets JSON-RPC -32601 (method not found).
 */
export type ElicitationMode = 'form' | 'decline' | 'off';

export interface McpServerSpec {
  /** Configured server name (key of `mcpServers`). */
  name: string;
  transport: McpTransportSpec;
  /** How long a person may take to answer one elicitation from this server, in milliseconds. */
  elicitationTimeoutMs: number;
  /**
   * How long the server has to answer its handshake once started, in ms (`startupTimeout`; the era probe's time
   * comes on top when probing). Default DEFAULT_STARTUP_TIMEOUT_MS, 30 s (handshake.ts).
   */
  startupTimeoutMs?: number;
  /** Default 'form'. */
  elicitationMode?: ElicitationMode;
  /**
   * A 2026-07-28 server: how many times one call is sent again with answers before it fails. Default 10.
   */
  maxRounds?: number;
  /** Most of its elicitations waiting for a person at once on this hub; more get -32600. Default: no limit. */
  maxPending?: number;
  /**
   * Where an elicitation goes that no tool call of this bot caused (none in flight on its session, or on the
   * control link). Absent: such a request is refused with -32600, never shown to whoever called last.
   */
  unsolicitedTo?: Origin;
}

/**
 * An `elicitation/create` request as the relay sees it; `requestedSchema` is the raw JSON the server sent.
 * A 2026-07-28 URL-mode request has no `elicitationId` (nor a completion notification): the hub gives it
 * one of its own that no server will ever complete, `mrtr:<call id>:<key>`, the same in every round of one
 * call that asks under that key (so the relay can keep one card for it), or "mrtr:" and a random UUID outside
 * a call.
 */
export type IncomingElicitation =
  | { mode: 'form'; message: string; requestedSchema: unknown }
  | { mode: 'url'; message: string; url: string; elicitationId: string };

/** The server's own name and version, from its `initialize` result (`serverInfo`). */
export interface ServerInfo {
  name: string;
  version: string;
  /** Human-readable name, when the server sends one (revision 2025-06-18 and later). */
  title?: string;
}

export interface ElicitationContext {
  server: string;
  /** What the server said about itself in `initialize`; absent only if it sent nothing usable. */
  serverInfo?: ServerInfo;
  /**
   * Who started the tool call that caused the elicitation, and where (see the session design in hub.ts).
   * When the session has no single call in flight, only the session's person is known.
   */
  origin: Origin;
  /**
   * Aborts when the question is no longer wanted; its `reason` says why, in the relay's EndReason words:
   * 'withdrawn' (the server sent notifications/cancelled) or 'call_ended' (the tool call that caused it
   * ended, by result, error, timeout or abort, or its connection closed).
   */
  signal: AbortSignal;
  /**
   * How long the person may take, in ms: the server's configured elicitation timeout, capped by what is
   * left of the causing call's deadline (ToolCall.timeoutMs), so the card never promises more time.
   */
  timeoutMs: number;
  /**
   * The durable round request it answers (a person's run of a 2026 server): any replica records its end in
   * the round, so the question outlives this replica.
   */
  round?: RoundRef;
}

/** Implemented by the relay: returns exactly one outcome per elicitation. */
export interface ElicitationSink {
  ask(request: IncomingElicitation, ctx: ElicitationContext): Promise<Outcome>;
  /**
   * The server sent `notifications/elicitation/complete`: the out-of-band step of the URL-mode
   * elicitation `elicitationId` is done. The id is whatever the server sent; unknown or already
   * finished ids are for the sink to ignore. A throw is logged, never sent to the server.
   */
  complete?(elicitationId: string, ctx: { server: string; origin: Origin }): void;
  /**
   * The call that asked these 2026 URL requests (`mrtr:` ids) ended, by result or failure: no round asks
   * for them again, so their cards can show how they ended. A throw is logged.
   */
  linksSettled?(elicitationIds: string[], ctx: { server: string; origin: Origin }): void;
}

/**
 * One server's health, from the latest event the hub saw: 'idle' = no connection attempted yet;
 * 'connected' = the latest connect (or probe) succeeded and no session has dropped since;
 * 'reconnecting' = the latest connect failed or a session dropped, and another attempt is due at
 * `nextRetryAt`; 'failed' = the latest connect failed and no attempt is scheduled.
 * Sessions closed by the hub itself (idle close, close()) do not change the state.
 */
export interface ServerStatus {
  server: string;
  state: 'idle' | 'connected' | 'reconnecting' | 'failed';
  /** Sessions open for people (the control link not counted); absent when none. */
  sessions?: number;
  /** The latest failure with its causes, one line, at most 300 characters; kept after a recovery. */
  lastError?: string;
  /**
   * The latest failure as data, for text in a person's language: the bot's own error code when it was an
   * McpClientError (its message, the bot's English words, is left out), and its causes' text (the server's,
   * the network's or the OS's), absent when it has none. Without a code, lastError is the cause.
   */
  lastFailure?: { code?: McpClientErrorCode; cause?: string };
  /** State 'reconnecting': when the next attempt starts, epoch milliseconds. */
  nextRetryAt?: number;
  /**
   * The protocol revision the latest connection negotiated (for example '2025-06-18', '2025-11-25' or
   * '2026-07-28'); absent until a connection succeeded.
   */
  protocolVersion?: string;
}

/** A tool as the server lists it (`tools/list`), for menus and argument forms. */
export interface ToolSummary {
  name: string;
  /** `title`, else `annotations.title`. */
  title?: string;
  description?: string;
  /** The tool's JSON Schema for its arguments, as the server sent it. */
  inputSchema: unknown;
  /** `execution.taskSupport`: whether the tool runs as a task ('required': only as a task). */
  taskSupport?: 'optional' | 'required';
}

/** A `notifications/progress` of a tool call, or a status message of its task. */
export interface ProgressUpdate {
  /** Grows with every update; a task's status message repeats the latest value. */
  progress: number;
  total?: number;
  message?: string;
}

/** One tool call through the hub. */
export interface ToolCall {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Who runs the tool, and where; the elicitations the call causes carry it. */
  origin: Origin;
  /** Aborting it abandons the call (the server is told) and withdraws the questions it caused. */
  signal?: AbortSignal;
  /**
   * The longest the whole call may take, in milliseconds (an automation's deadline, say); questions it
   * causes are never given longer than what is left. Default: no limit beyond the silence timeout (call.ts)
   * and WORKING_MAX_MS (24 h) of the call working, plain or as a task (call.ts).
   */
  timeoutMs?: number;
  /** Progress notifications of the call (and status messages of its task). */
  onProgress?: (update: ProgressUpdate) => void;
  /**
   * Keep this call's 2026 input rounds in the deployment's round store (McpHubOptions.rounds), so that a
   * survivor sends the retry when this replica dies. A person's `/mcp run` and an API call set it; the
   * gateway's calls (bound to their HTTP request) keep their rounds in this replica's memory.
   */
  durable?: true;
  /** A round this replica took over from the round store: the call starts with its retry. */
  resume?: ResumedRound;
}

/** A round taken over from the round store: its continuation, number, state and answers (see DurableRounds). */
export interface ResumedRound {
  id: string;
  /** The round's number: the retry sent is the call's `round`-th. */
  round: number;
  requestState?: string;
  /** By request key, as recorded (ElicitResult JSON). */
  answers: Record<string, unknown>;
}

/** One `input_required` answer of a durable call, as the round store keeps it. */
export interface DurableRound {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  origin: Origin;
  requestState?: string;
  /**
   * Each `inputRequests` entry by key, as the round keeps it (round-bounds.ts keptRequest: what the relay reads
   * of it; a round written by an earlier release kept the entry as the server sent it).
   */
  requests: { key: string; request: unknown }[];
  /** 1 for the call's first `input_required` answer. */
  round: number;
  /** Epoch ms after which nobody waits for the round's answers. */
  deadline: number;
}

/**
 * Where a durable call's rounds live (implemented over src/rounds' RoundStore for this replica): every
 * `input_required` answer is recorded (`open`, then `next`), so the record is the call's current round and its
 * number the hub's; one that asks nothing (only a `requestState`) is recorded claimed by this replica, whose
 * retry goes at once. `answered` is true when the answer was the round's last and this replica claimed the
 * retry; `hold` keeps the claim while the retry is out (returns its stop); `finished` drops the continuation
 * once the call has ended.
 */
export interface DurableRounds {
  open(round: DurableRound): Promise<string>;
  next(
    id: string,
    round: Omit<DurableRound, 'server' | 'tool' | 'args' | 'origin' | 'round'>,
  ): Promise<boolean>;
  answered(id: string, round: number, key: string, answer: unknown): Promise<boolean>;
  hold(id: string): () => void;
  finished(id: string): Promise<void>;
}

/** One URL-mode elicitation of a -32042 (`URLElicitationRequiredError`) answer to a tool call. */
export interface UrlRequired {
  elicitationId: string;
  url: string;
  message: string;
}

export interface ToolResult {
  isError: boolean;
  /** Text content joined by newlines; non-text content summarised, e.g. "[image]". */
  text: string;
  structured?: unknown;
  /**
   * The whole CallToolResult as the server returned it (every content block, `structuredContent`, `_meta`,
   * `isError`), for callers that keep the result rather than show it (the API's calls). Absent when the
   * server sent no result: a -32042 answer, or a failure the hub reports as a result.
   */
  callResult?: Record<string, unknown>;
  /**
   * The server answered the call with -32042: the person must open these links first, then the call may
   * be retried with the same arguments. `isError` is true and `text` is the server's message.
   */
  urlRequired?: UrlRequired[];
  /**
   * The call cannot go on but may be started again from the beginning with the same arguments: a 2026
   * server no longer accepted a round's answers (McpClientError 'round_expired'). `isError` is true.
   */
  restartable?: true;
}

/** Minimal structured logger (pino-compatible). */
export interface McpLogger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export type McpClientErrorCode =
  | 'unknown_server' // no server with that name is configured
  | 'connect_failed' // the transport or the initialize handshake failed
  | 'handshake_timeout' // the server took the connection but did not answer its handshake in time (handshake.ts)
  | 'tool_failed' // the server answered the request with a JSON-RPC error
  | 'round_expired' // a 2026 server refused a round's retry (-32602): its requestState expired; start again
  | 'malformed_tool' // the tool as listed breaks the MCP schema (tool-listing.ts): not sent to the server
  | 'timeout' // no answer within the request timeout
  | 'connection_closed' // the session ended (or its transport failed) while the request was in flight
  | 'session_expired' // the server no longer knows the session (HTTP 404); the hub retries on a new one
  | 'aborted' // the caller's signal aborted the request
  | 'closed'; // the hub is closed

export class McpClientError extends Error {
  override name = 'McpClientError';
  /** The JSON-RPC error code the server sent, for codes 'tool_failed' and 'round_expired'. */
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
