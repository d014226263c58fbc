// Everything the hub keeps for one configured server: its health, its control link (control.ts), its tool
// list and one session pool per person. Any session that drops, or a connect that fails, puts the server into
// 'reconnecting' until the control link's next check succeeds.
import type { Clock } from '../clock.js';
import type { BackoffOptions } from './backoff.js';
import type { LeavingRounds } from './leaving-rounds.js';
import { ControlLink } from './control.js';
import { EraVerdict, refusesLegacyClient } from './era.js';
import { Openings } from './openings.js';
import { OutputChecks } from './output-check.js';
import { gateSink } from './pending-gate.js';
import { poolOf, SessionPool } from './pool.js';
import type { McpSession } from './session.js';
import { Health } from './status.js';
import type { ToolListing } from './tool-listing.js';
import { refusesTool, usableTool } from './tool-refusal.js';
import { ToolsCache } from './tools-cache.js';
import type { Turn } from './transport.js';
import { MAX_STEP_UPS, needsSignIn, stillRefused, type McpAuth } from './auth/sign-in.js';
import {
  McpClientError,
  type ElicitationSink,
  type McpLogger,
  type McpServerSpec,
  type McpTransport,
  type ServerStatus,
  type ToolCall,
  type ToolResult,
} from './types.js';
import type { Origin } from '../relay/types.js';

export interface LinkOptions {
  sink: ElicitationSink;
  clientInfo: { name: string; version: string };
  /** Replaces the transports built from the spec (tests). */
  connect?: (spec: McpServerSpec) => McpTransport | Promise<McpTransport>;
  clock: Clock;
  backoff: BackoffOptions;
  heartbeatMs: number;
  idleCloseMs: number;
  maxSessionsPerPerson: number;
  /** Most sessions to this server opening at once (starts.ts). */
  maxSessionStarts: number;
  onStatus?: (status: ServerStatus) => void;
  logger?: McpLogger;
  /** Sign-in for servers with `auth` (auth/sign-in.ts); absent: no session signs in. */
  auth?: McpAuth;
  /** Where durable calls keep their 2026 rounds; absent: every round stays in memory. */
  rounds?: LeavingRounds;
  /** Awaited around each HTTP exchange with the server (McpHubOptions.turn). */
  turn?: Turn;
}

export class ServerLink {
  private readonly health: Health;
  /** The relay's sink behind this server's `maxPending` gate, shared by all its sessions. */
  private readonly sink: ElicitationSink;
  private readonly pools = new Map<string, SessionPool>();
  private readonly tools: ToolsCache;
  private readonly control: ControlLink;
  /** The server's era as connections found it, so that further sessions skip the probe (era.ts). */
  private readonly era: EraVerdict;
  /** Every session's opening (a person's, the control link's), ended at once by close(). */
  private readonly openings: Openings;
  private closed = false;

  constructor(
    readonly spec: McpServerSpec,
    private readonly opts: LinkOptions,
  ) {
    this.health = new Health(spec.name, opts.onStatus);
    this.sink = gateSink(opts.sink, spec.name, spec.maxPending);
    this.tools = new ToolsCache({
      server: spec.name,
      personal: () => this.personal,
      control: () => this.control.session(),
      pool: (person) => this.poolFor(person),
    });
    this.era = new EraVerdict(
      () => opts.clock.now(),
      () => this.closeIdle(),
    );
    this.openings = new Openings({
      spec,
      link: opts,
      sink: this.sink,
      era: this.era,
      // One per server, so each of its outputSchemas compiles once for all its sessions (output-check.ts).
      outputs: new OutputChecks(spec.name, opts.logger),
      onToolsChanged: () => this.tools.changed(),
    });
    this.control = new ControlLink({
      health: this.health,
      clock: opts.clock,
      backoff: opts.backoff,
      heartbeatMs: opts.heartbeatMs,
      open: (onClosed) => this.open(undefined, undefined, onClosed),
      onLost: () => {
        // The server may have been replaced by one of another era; idle sessions went with it.
        this.era.forget();
        this.closeIdle();
      },
    });
  }

  status(): ServerStatus {
    return this.health.status();
  }

  /** Opens the control link in the background (none for a server each person signs in to); see status(). */
  start(): void {
    if (this.health.current === 'idle' && !this.personal) this.control.retryNow();
  }

  /** The server's tools: from the cache, else listed over the control link (or `person`'s own session). */
  async listTools(person?: Origin): Promise<ToolListing> {
    this.assertOpen();
    return this.tools.list(person);
  }

  /** Each person signs in to this server: a session without a person cannot reach it. */
  private get personal(): boolean {
    return this.opts.auth?.personal?.(this.spec.name) ?? false;
  }

  async callTool(call: ToolCall): Promise<ToolResult> {
    this.assertOpen();
    // A taken-over round was asked by a 2026 server: a 2025 verdict may be stale, and the round would be dropped
    // on a 2025 session as one whose retry cannot be sent (tool-run.ts), so its session probes the era afresh.
    if (call.resume !== undefined && this.era.doubt('legacy')) await this.poolFor(call.origin).closeIdle();
    try {
      return await this.callOnSession(call);
    } catch (error) {
      await this.refusedResume(call, error);
      throw error;
    }
  }

  /**
   * A taken-over round whose tool is refused (tool-refusal.ts) ends for good, as a resumed call the server failed
   * does (rounds.ts): its round goes. Kept, its claim would lapse and the take-over sweep would resume it again,
   * and the person read the refusal again, every lease until the round's deadline and grace.
   */
  private async refusedResume(call: ToolCall, error: unknown): Promise<void> {
    if (call.resume !== undefined && refusesTool(error)) await this.opts.rounds?.finished(call.resume.id);
  }

  /** Runs `call` on a session of its person's pool. */
  private async callOnSession(call: ToolCall): Promise<ToolResult> {
    // One retry, on a new session, when the server refused the request before running it (neverRan).
    let signIns = 0;
    for (let attempt = 0; ; attempt += 1) {
      const pool = this.poolFor(call.origin);
      const session = await pool.acquire(call.signal);
      try {
        const listing = await this.tools.forCall(session);
        const tool = usableTool(listing, call.tool, this.spec.name);
        return await session.run(call, tool, listing.definitions?.get(call.tool));
      } catch (error) {
        // A step-up (insufficient_scope) or a revoked grant: the request never ran; once signed in, again.
        if (session.auth !== undefined && needsSignIn(error)) {
          if (signIns >= MAX_STEP_UPS) throw stillRefused(this.spec.name, error);
          signIns += 1;
          await session.auth.signedIn(call.signal);
          continue;
        }
        if (attempt > 0 || !this.neverRan(error, session)) throw error;
      } finally {
        pool.release(session);
      }
    }
  }

  /**
   * A call the server refused before running it, so sent once more on a new session: it forgot our session (HTTP
   * 404), or refused a 2025 session's call, the call's one request (it serves 2026 only now: the era verdict and
   * the idle sessions opened under it go, so the new session probes).
   */
  private neverRan(error: unknown, session: McpSession): boolean {
    if (!(error instanceof McpClientError)) return false;
    const refused = session.era?.kind === 'legacy' && refusesLegacyClient(error.cause);
    if (!refused) return error.code === 'session_expired';
    this.era.forget();
    this.closeIdle();
    // Still leased, so closeIdle left it: closed now, it is not parked again for the retry to take.
    void session.close().catch(() => undefined);
    return true;
  }

  /** Sessions parked idle speak the server's era as it was (a new one, after a probe, may differ). */
  private closeIdle(): void {
    for (const pool of this.pools.values()) void pool.closeIdle();
  }

  /**
   * Opens `person`'s session ahead of the call they just asked for (SessionPool.warm). Not for a server each
   * person signs in to (a prompt to sign in comes from their call, not from a warm-up), nor for one known down.
   */
  warm(person: Origin): void {
    const state = this.health.current;
    if (this.closed || this.personal || (state !== 'connected' && state !== 'idle')) return;
    this.poolFor(person).warm();
  }

  /**
   * The bot is stopping: the server's exits and failures from now on are part of that (a signal to the bot's
   * process group reaches its stdio servers too), so its health stays as it is and nothing reconnects. Calls
   * still run until close().
   */
  closing(): void {
    this.health.quiet();
    this.control.stopChecking();
  }

  /** Stops the control link, closes every session and ends the handshakes under way, awaiting their end. */
  async close(): Promise<void> {
    this.closing();
    this.closed = true;
    await Promise.allSettled([
      this.control.close(),
      ...[...this.pools.values()].map((pool) => pool.closeAll()),
      this.openings.close(),
    ]);
  }

  private poolFor(origin: Origin): SessionPool {
    const { person, key } = poolOf(origin);
    const existing = this.pools.get(key);
    if (existing !== undefined) return existing;
    const pool: SessionPool = new SessionPool({
      server: this.spec.name,
      max: this.opts.maxSessionsPerPerson,
      idleCloseMs: this.opts.idleCloseMs,
      schedule: this.opts.clock.schedule,
      open: (signal) => this.openForPerson(person, pool, signal),
      onEmpty: () => {
        if (this.pools.get(key) === pool) this.pools.delete(key);
      },
    });
    this.pools.set(key, pool);
    return pool;
  }

  private async openForPerson(person: Origin, pool: SessionPool, signal?: AbortSignal): Promise<McpSession> {
    let session: McpSession | undefined;
    try {
      session = await this.open(person, signal, (dropped) => {
        this.health.sessions -= 1;
        if (session !== undefined) pool.closed(session);
        if (dropped) this.control.droppedSession();
      });
    } catch (error) {
      // Ended because the hub closes or the run was cancelled: nothing the server did.
      if (this.closed || signal?.aborted === true) throw error;
      this.health.noteError(error);
      // The server may be down although the control link has not noticed yet: check it now.
      if (!this.personal && (this.health.current === 'connected' || this.health.current === 'idle'))
        this.control.retryNow();
      throw error;
    }
    this.health.sessions += 1;
    // A person reached a server the hub thought down: check the control link at once. (A server never
    // checked before counts as connected; its control link opens with start() or the first listing.)
    if (this.health.current === 'idle') this.health.up();
    else if (this.health.current !== 'connected' && !this.personal) this.control.retryNow();
    else if (this.health.current !== 'connected') this.health.up();
    return session;
  }

  /** A new session (openings.ts), whose revision the server's status shows. */
  private async open(
    person: Origin | undefined,
    cancel: AbortSignal | undefined,
    onClosed: (dropped: boolean) => void,
  ): Promise<McpSession> {
    const session = await this.openings.open(person, cancel, onClosed);
    this.health.protocolVersion = session.protocolVersion;
    return session;
  }

  private assertOpen(): void {
    if (this.closed) throw new McpClientError('closed', this.spec.name, 'the MCP hub is closed');
  }
}
