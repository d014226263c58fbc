// A person's sessions to one server. MCP does not say which tool call an `elicitation/create` belongs to,
// so each session runs at most one call at a time: every elicitation then belongs to the one call in flight
// on its session. A call takes an idle session, or opens another while the person has fewer than `max`;
// beyond that it waits for one to come free. Idle sessions close after `idleCloseMs`.
//
// Cost: a stdio server runs one child process per session, so a person with k calls in flight on a stdio
// server runs min(k, max) processes of it (plus the server's one control process, see link.ts).
import type { Schedule } from '../clock.js';
import { McpClientError } from './types.js';
import type { McpSession } from './session.js';

export interface PoolOptions {
  server: string;
  /** Opens a new session for this person; the pool adds it and watches for its end through closed(). */
  open: () => Promise<McpSession>;
  /** Most sessions (so calls in flight) at once. */
  max: number;
  idleCloseMs: number;
  schedule: Schedule;
  /** Called when the pool holds nothing any more (no session, no caller waiting), so it can be dropped. */
  onEmpty: () => void;
}

export class SessionPool {
  private readonly sessions = new Set<McpSession>();
  private readonly leased = new Set<McpSession>();
  private readonly idleTimers = new Map<McpSession, () => void>();
  /** Callers waiting for a session to come free, first come first served. */
  private readonly waiting: (() => void)[] = [];
  private opening = 0;
  private shut = false;

  constructor(private readonly opts: PoolOptions) {}

  /** A session for one call; give it back with release(). Rejects 'aborted' when `signal` aborts first. */
  async acquire(signal?: AbortSignal): Promise<McpSession> {
    for (;;) {
      if (this.shut) throw new McpClientError('closed', this.opts.server, 'the MCP hub is closed');
      if (signal?.aborted === true) {
        throw new McpClientError('aborted', this.opts.server, `call to ${this.opts.server} was aborted`);
      }
      const idle = [...this.sessions].find((s) => !this.leased.has(s) && !s.isClosed);
      if (idle !== undefined) return this.lease(idle);
      if (this.sessions.size + this.opening < this.opts.max) return this.openLeased();
      await this.turn(signal);
    }
  }

  release(session: McpSession): void {
    this.leased.delete(session);
    if (!session.isClosed) {
      this.idleTimers.set(
        session,
        this.opts.schedule(() => void session.close().catch(() => undefined), this.opts.idleCloseMs),
      );
    }
    this.wakeOne();
  }

  /** The session ended (idle close, drop, hub close): it leaves the pool. */
  closed(session: McpSession): void {
    this.sessions.delete(session);
    this.leased.delete(session);
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

  private lease(session: McpSession): McpSession {
    this.idleTimers.get(session)?.();
    this.idleTimers.delete(session);
    this.leased.add(session);
    return session;
  }

  /**
   * Opens a session leased to the caller before anyone is woken: a caller woken by the finally below, if it
   * found the new session not yet leased, would take it too, and the two calls would share one session (the
   * second failed "already busy" when a person's calls outnumbered their sessions, seen in the open loop).
   */
  private async openLeased(): Promise<McpSession> {
    this.opening += 1;
    try {
      const session = await this.opts.open();
      if (this.shut) {
        await session.close();
        throw new McpClientError('closed', this.opts.server, 'the MCP hub is closed');
      }
      this.sessions.add(session);
      return this.lease(session);
    } finally {
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
    if (this.sessions.size === 0 && this.opening === 0 && this.waiting.length === 0) this.opts.onEmpty();
  }
}
