// The bot's MCP client: the only door from the rest of the code to the configured MCP servers.
//
// Requests in, outcomes out: the rest of the bot calls tools (callTool, listTools), reads health (status),
// and answers elicitations through the ElicitationSink it passes in. Per server, a ServerLink (link.ts)
// keeps a control link with reconnects and one session pool per person (pool.ts), whose sessions run one
// call at a time so that every elicitation is tied to the exact call that caused it (session.ts).
import { preloadSchemas } from '@modelcontextprotocol/client';
import { systemClock, type Clock } from '../clock.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff.js';
import { ServerLink } from './link.js';
import { DEFAULT_MAX_SESSION_STARTS } from './starts.js';
import type { ToolListing } from './tool-listing.js';
import { leavingRounds, RETRY_GRACE_MS, type LeavingRounds } from './leaving-rounds.js';
import type { McpAuth } from './auth/sign-in.js';
import type { Origin } from '../relay/types.js';
import {
  McpClientError,
  type DurableRounds,
  type ElicitationSink,
  type McpLogger,
  type McpServerSpec,
  type McpTransport,
  type ServerStatus,
  type ToolCall,
  type ToolResult,
  type ToolSummary,
} from './types.js';

export interface McpHubOptions {
  servers: McpServerSpec[];
  sink: ElicitationSink;
  /** Sent in `initialize`; default `{ name: 'elicit-relay', version: '0.1.0' }`. */
  clientInfo?: { name: string; version: string };
  /** Builds a fresh transport for each new session; default: stdio, Streamable HTTP or SSE from the spec. */
  connect?: (spec: McpServerSpec) => McpTransport | Promise<McpTransport>;
  /** Close a person's session after this many milliseconds unused; default 10 minutes. */
  idleCloseMs?: number;
  /**
   * Most sessions one person holds to one server, so most of their calls in flight there at once; more
   * calls wait for a session to come free. Default 4. (A stdio server runs one process per session.)
   */
  maxSessionsPerPerson?: number;
  /**
   * Most sessions to one server opening at once; more wait their turn (starts.ts), so a crowd of first
   * commands does not starve the requests still arriving. Default 16.
   */
  maxSessionStarts?: number;
  /** How often the control link of a connected server is pinged, in milliseconds; default 30 s. */
  heartbeatMs?: number;
  /** Reconnect backoff; default 1 s doubling up to 5 minutes, with jitter (backoff.ts). */
  backoff?: Partial<BackoffOptions>;
  /** Hears each server's status when it connects, or fails and schedules a retry (for logs, tests). */
  onStatus?: (status: ServerStatus) => void;
  /** Timers, time and jitter; default real ones. */
  clock?: Partial<Clock>;
  logger?: McpLogger;
  /** Sign-in for servers that need it (MCP authorization, auth/sign-in.ts); absent: none signs in. */
  auth?: McpAuth;
  /**
   * Where calls marked `durable` keep their 2026 input rounds (src/rounds over Redis), so a survivor can
   * retry them; absent: every round lives in the memory of the replica running the call.
   */
  rounds?: DurableRounds;
  /**
   * How long close() lets durable retries out answer before closing their sessions, in ms; default 10 s
   * (RETRY_GRACE_MS). One still out then is left to a survivor (leaving-rounds.ts).
   */
  retryGraceMs?: number;
  /**
   * Awaited before each HTTP request to a server (Streamable HTTP or SSE) is sent and again before its response
   * is read, parsed and acted on: the host's urgent work goes first. The Slack side passes its ack gate (a
   * crowd of first commands opens as many sessions, whose handshakes would otherwise take the event loop from
   * the requests still waiting for their acks; issue #19 goals 6b, 7b). Absent: exchanges go at once.
   */
  turn?: () => Promise<void>;
}

const DEFAULT_IDLE_CLOSE_MS = 10 * 60_000;
const DEFAULT_MAX_SESSIONS_PER_PERSON = 4;
const DEFAULT_HEARTBEAT_MS = 30_000;

export class McpHub {
  private readonly links: Map<string, ServerLink>;
  private closed = false;
  private readonly rounds: LeavingRounds | undefined;
  private readonly retryGraceMs: number;
  private leaving: Promise<void> | undefined;

  constructor(opts: McpHubOptions) {
    this.rounds = opts.rounds === undefined ? undefined : leavingRounds(opts.rounds);
    this.retryGraceMs = opts.retryGraceMs ?? RETRY_GRACE_MS;
    const shared = {
      sink: opts.sink,
      clientInfo: opts.clientInfo ?? { name: 'elicit-relay', version: '0.1.0' },
      clock: { ...systemClock, ...opts.clock },
      backoff: { ...DEFAULT_BACKOFF, ...opts.backoff },
      heartbeatMs: opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      idleCloseMs: opts.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS,
      maxSessionsPerPerson: opts.maxSessionsPerPerson ?? DEFAULT_MAX_SESSIONS_PER_PERSON,
      maxSessionStarts: opts.maxSessionStarts ?? DEFAULT_MAX_SESSION_STARTS,
      ...(opts.connect === undefined ? {} : { connect: opts.connect }),
      ...(opts.onStatus === undefined ? {} : { onStatus: opts.onStatus }),
      ...(opts.logger === undefined ? {} : { logger: opts.logger }),
      ...(opts.auth === undefined ? {} : { auth: opts.auth }),
      ...(this.rounds === undefined ? {} : { rounds: this.rounds }),
      ...(opts.turn === undefined ? {} : { turn: opts.turn }),
    };
    this.links = new Map(opts.servers.map((spec) => [spec.name, new ServerLink(spec, shared)]));
  }

  serverNames(): string[] {
    return [...this.links.keys()];
  }

  /** Every configured server's health, in configuration order (see ServerStatus). */
  status(): ServerStatus[] {
    return [...this.links.values()].map((link) => link.status());
  }

  /**
   * Connects every server's control link in the background, none waiting for another; see status(). First
   * builds the SDK's wire schemas (once per process, both eras; 60-86 ms of CPU measured at load 18-20):
   * built lazily, they were built by the first handshake, which in a crowd of first commands (issue #19
   * goal 7) lands in the middle of the other people's session starts and acks.
   */
  start(): void {
    preloadSchemas();
    for (const link of this.links.values()) link.start();
  }

  /** Runs a tool for `call.origin`; the elicitations it causes carry that origin and end with the call. */
  async callTool(call: ToolCall): Promise<ToolResult> {
    // A taken-over round of a server this deployment no longer configures can never be sent: it ends with that
    // failure, once, its round gone, rather than being taken over again and failed again every lease.
    if (call.resume !== undefined && !this.links.has(call.server))
      await this.rounds?.finished(call.resume.id);
    return this.link(call.server).callTool(call);
  }

  /**
   * Starts opening `person`'s session to `server` for a call about to come, so the handshake overlaps what
   * comes before the call; the call then takes that session. Best effort: nothing for an unknown server, a
   * closed hub, or a person who has a session free already.
   */
  warm(server: string, person: Origin): void {
    if (!this.closed) this.links.get(server)?.warm(person);
  }

  /**
   * The server's tools (one list per server, cached, fetched again after the server says it changed). A server
   * each person signs in to lists them in `person`'s own session (they may be asked to sign in first).
   */
  async listTools(server: string, person?: Origin): Promise<ToolSummary[]> {
    return (await this.link(server).listTools(person)).tools;
  }

  /**
   * The same listing, with the tools the server listed that the MCP schema refuses (their definitions are
   * malformed): left out of listTools and never called, known here by name with their problem.
   */
  async toolListing(server: string, person?: Origin): Promise<ToolListing> {
    return this.link(server).listTools(person);
  }

  /**
   * A graceful stop's first step: lets the durable retries out answer, waiting at most `retryGraceMs`; one
   * failing from then on (its session closed) is left to a survivor, not failed (leaving-rounds.ts). Once only.
   */
  leave(): Promise<void> {
    this.leaving ??= this.rounds?.leave(this.retryGraceMs) ?? Promise.resolve();
    return this.leaving;
  }

  /**
   * A stop's first moment, before any other part of the bot stops: from now on a server's exit or failure is
   * the stop's doing (Ctrl-C or `kill -- -<pgid>` signals the stdio servers with the bot), not the server's: no
   * status change (so no warning, no failure metric) and no reconnect. Calls and sessions go on until close().
   */
  closing(): void {
    for (const link of this.links.values()) link.closing();
  }

  /** Closes every session (stdio children exit) and stops reconnecting; later calls fail with 'closed'. Leaves first. */
  async close(): Promise<void> {
    this.closing();
    this.closed = true;
    await this.leave();
    await Promise.allSettled([...this.links.values()].map((link) => link.close()));
  }

  private link(server: string): ServerLink {
    const link = this.links.get(server);
    if (link === undefined) {
      throw new McpClientError('unknown_server', server, `no MCP server named "${server}"`);
    }
    if (this.closed) throw new McpClientError('closed', server, 'the MCP hub is closed');
    return link;
  }
}
