// A person's sessions to one server. MCP does not say which tool call an `elicitation/create` belongs to,
// so each session runs at most one call at a time: every elicitation then belongs to the one call in flight
// on its session. A call takes an idle session, or opens another while the person has fewer than `max`;
// beyond that it waits for one to come free. Idle sessions close after `idleCloseMs`. warm() opens a session
// ahead of a call the person just asked for, so its handshake overlaps what the call waits on first (the
// command's claim, its "Running…" note, the person's DM); the call then takes that session.
//
// A 2026 call whose session's connection is lost while people answer a round gets another session of the pool
// for its retry (successor), as any call would: the server keeps nothing between legs (tool-run.ts).
//
// Cost: a stdio server runs one child process per session, so a person with k calls in flight on a stdio
// server runs min(k, max) processes of it (plus the server's one control process, see link.ts).
import type { Schedule } from '../clock.js';
import { McpClientError } from './types.js';
import type { McpSession } from './session.js';
import type { Successor } from './tool-run.js';
import type { Origin } from '../relay/types.js';

/**
 * The person a pool serves and its key. An API call's sessions are kept apart from the person's own: when one
 * needs a sign-in, nobody can be prompted in Slack while it runs (auth/person-auth.ts reads the callId; it names
 * the first such call).
 */
export function poolOf(origin: Origin): { person: Origin; key: string } {
  const api = origin.callId === undefined ? {} : { callId: origin.callId };
  const person: Origin = {
    userId: origin.userId,
    ...(origin.teamId ? { teamId: origin.teamId } : {}),
    ...api,
  };
  // JSON keeps any two (workspace, user) pairs apart, whatever characters they contain.
  return { person, key: JSON.stringify([person.teamId ?? '', person.userId, origin.callId !== undefined]) };
}

export interface PoolOptions {
  server: string;
  /**
   * Opens a new session for this person; the pool adds it and watches for its end through closed(). `signal`
   * is the opening call's: aborted, the open stops waiting (for the person's sign-in) and rejects.
   */
  open: (signal?: AbortSignal) => Promise<McpSession>;
  /** Most sessions (so calls in flight) at once. */
  max: number;
  idleCloseMs: number;
  schedule: Schedule;
  /** Called when the pool holds nothing any more (no session, no caller waiting), so it can be dropped. */
  onEmpty: () => void;
}

/**
 * A session warm() opened or is opening. The first acquire while it opens takes it (`taken`) instead of opening
 * one of its own; `settled` once the open succeeded or failed (a session that nobody took is then idle). `abort`
 * ends its opening: the call that took it, the only one waiting for it then, aborts it when cancelled.
 */
interface Warming {
  claim: { taken: boolean; settled: boolean };
  opened: Promise<McpSession>;
  abort: AbortController;
}

export class SessionPool {
  private readonly sessions = new Set<McpSession>();
  private readonly leased = new Set<McpSession>();
  private readonly idleTimers = new Map<McpSession, () => void>();
  /** Callers waiting for a session to come free, first come first served. */
  private readonly waiting: (() => void)[] = [];
  private opening = 0;
  private warming: Warming | undefined;
  private shut = false;

  constructor(private readonly opts: PoolOptions) {}

  /** A session for one call; give it back with release(). Rejects 'aborted' when `signal` aborts first. */
  async acquire(signal?: AbortSignal): Promise<McpSession> {
    for (;;) {
      if (this.shut) throw new McpClientError('closed', this.opts.server, 'the MCP hub is closed');
      if (signal?.aborted === true) {
        throw new McpClientError('aborted', this.opts.server, `call to ${this.opts.server} was aborted`);
      }
      const idle = this.idleSession();
      if (idle !== undefined) return this.lease(idle);
      const warming = this.warmingNow();
      if (warming !== undefined && !warming.claim.taken) return this.takeWarming(warming, signal);
      if (this.sessions.size + this.opening < this.opts.max) return this.openSession(() => true, signal);
      await this.turn(signal);
    }
  }

  /**
   * Opens a session for a call about to come, unless one is idle or opening for it already, or the person
   * has `max`. A call made while it opens takes it, and meets its failure as it would its own open's; once open
   * and not taken, it waits idle (closing after `idleCloseMs`); a failed open nobody took is forgotten, and the
   * next call opens its own.
   */
  warm(): void {
    if (this.shut || this.warmingNow() !== undefined || this.idleSession() !== undefined) return;
    if (this.sessions.size + this.opening >= this.opts.max) return;
    const claim = { taken: false, settled: false };
    const abort = new AbortController();
    const opened = this.openSession(
      () => claim.taken,
      abort.signal,
      () => (claim.settled = true),
    );
    void opened.catch(() => undefined);
    this.warming = { claim, opened, abort };
  }

  /**
   * A session for the rest of a 2026 call whose own connection is gone (tool-run.ts), leased as acquire leases
   * one (the closed session's place is free again); give it back with the returned `release`.
   */
  async successor(signal?: AbortSignal): Promise<Successor> {
    const session = await this.acquire(signal);
    try {
      return { ...session.lend(), release: () => this.release(session) };
    } catch (error) {
      this.release(session);
      throw error;
    }
  }

  release(session: McpSession): void {
    this.leased.delete(session);
    this.park(session);
    this.wakeOne();
    this.checkEmpty();
  }

  /**
   * The session ended (idle close, drop, hub close): it leaves the pool. A leased one stays leased until its
   * call releases it: that call may go on on a successor, so the pool is not empty (and dropped) meanwhile.
   */
  closed(session: McpSession): void {
    this.sessions.delete(session);
    this.idleTimers.get(session)?.();
    this.idleTimers.delete(session);
    this.wakeOne();
    this.checkEmpty();
  }

  /** Closes the sessions nobody is using, e.g. when the server went away and they are likely stale. */
  async closeIdle(): Promise<void> {
    const idle = [...this.sessions].filter((s) => !this.leased.has(s));
    await Promise.allSettled(idle.map((s) => s.close()));
  }

  /** Closes every session, and any still opening once it is open; later acquires fail with 'closed'. */
  async closeAll(): Promise<void> {
    this.shut = true;
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.allSettled([...this.sessions].map((s) => s.close()));
  }

  /** The warm-up still opening, if any. */
  private warmingNow(): Warming | undefined {
    return this.warming?.claim.settled === false ? this.warming : undefined;
  }

  private idleSession(): McpSession | undefined {
    return [...this.sessions].find((s) => !this.leased.has(s) && !s.isClosed);
  }

  /**
   * The warm session, once open, for this caller; its open's failure is the caller's, and so is its opening: the
   * caller's cancel ends it (nobody else waits for it).
   */
  private async takeWarming(warming: Warming, signal?: AbortSignal): Promise<McpSession> {
    warming.claim.taken = true;
    const cancel = (): void => warming.abort.abort(signal?.reason);
    signal?.addEventListener('abort', cancel, { once: true });
    const session = await warming.opened.finally(() => signal?.removeEventListener('abort', cancel));
    if (signal?.aborted !== true) return session;
    this.release(session);
    throw new McpClientError('aborted', this.opts.server, `call to ${this.opts.server} was aborted`);
  }

  /** An idle session closes after idleCloseMs unless a call takes it first. */
  private park(session: McpSession): void {
    if (session.isClosed) return;
    this.idleTimers.set(
      session,
      this.opts.schedule(() => void session.close().catch(() => undefined), this.opts.idleCloseMs),
    );
  }

  private lease(session: McpSession): McpSession {
    this.idleTimers.get(session)?.();
    this.idleTimers.delete(session);
    this.leased.add(session);
    return session;
  }

  /**
   * Opens a session, leased when `leased()` says so once it is open, else parked idle; either before anyone is
   * woken: a caller woken by the finally below, if it found a new session of another's not yet leased, would
   * take it too, and the two calls would share one session (the second failed "already busy" when a person's
   * calls outnumbered their sessions, seen in the open loop). A call cancelled while its open waits for the
   * person's sign-in (`signal`) frees its place at once.
   */
  private async openSession(
    leased: () => boolean,
    signal?: AbortSignal,
    settled?: () => void,
  ): Promise<McpSession> {
    this.opening += 1;
    try {
      const session = await this.opts.open(signal);
      if (this.shut) {
        await session.close();
        throw new McpClientError('closed', this.opts.server, 'the MCP hub is closed');
      }
      this.sessions.add(session);
      session.succeededBy((signal) => this.successor(signal));
      if (leased()) return this.lease(session);
      this.park(session);
      return session;
    } finally {
      settled?.();
      this.opening -= 1;
      // A failed open frees its place for a waiting caller (who will try for itself).
      this.wakeOne();
      this.checkEmpty();
    }
  }

  /** Resolves at the next change that may free a session; the caller then looks again. */
  private turn(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(wake);
        if (at !== -1) this.waiting.splice(at, 1);
        wake();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(wake);
    });
  }

  private wakeOne(): void {
    this.waiting.shift()?.();
  }

  private checkEmpty(): void {
    const idle = this.sessions.size === 0 && this.leased.size === 0 && this.opening === 0;
    if (idle && this.waiting.length === 0) this.opts.onEmpty();
  }
}
