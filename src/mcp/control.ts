// A server's control link: one session of the server's own (no person, no tool calls) that the hub keeps open.
// It proves the server is reachable, lists the tools, and hears `notifications/tools/list_changed`. It is
// opened by the first check (ServerLink.start, in the background) or by the first listing, pinged every
// `heartbeatMs`, and reopened with exponential backoff and jitter when it fails or drops. Any trouble a
// person's session reports also puts the server into 'reconnecting' until the next check succeeds. A lasting
// failure (the command cannot be run, HTTP 4xx) makes it 'failed' with no retry: only a person's next call
// tries again.
import type { Clock } from '../clock.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import type { McpSession } from './session.js';
import { droppedError, type Health } from './status.js';
import { isLastingFailure } from './transport.js';

/** How long a heartbeat ping may take before the control link counts as lost, in milliseconds. */
export const PING_TIMEOUT_MS = 10_000;

export interface ControlLinkDeps {
  /** The server's health, which this link keeps up to date. */
  health: Health;
  clock: Clock;
  backoff: BackoffOptions;
  /** Time between pings of the open control link, ms. */
  heartbeatMs: number;
  /** Opens a session of the server's own; `onClosed(dropped)` when it closes. */
  open(onClosed: (dropped: boolean) => void): Promise<McpSession>;
  /** The control link failed its ping or dropped: the server is likely gone, and so are idle sessions. */
  onLost(): void;
}

/**
 * How long (ms) a session the server closed waits before it counts as trouble (status, warning, retry): Ctrl-C
 * signals the bot's stdio servers with the bot (one process group), and the bot may see a server's pipe close
 * before its own signal handler runs; the stop's closing() then comes within this grace. 300 ms: a real crash is
 * reported that much later, and the first retry's backoff is longer anyway.
 */
export const DROP_GRACE_MS = 300;

export class ControlLink {
  private control: Promise<McpSession> | undefined;
  /** The control link once it is open (for close(), which must not wait on one still connecting). */
  private openControl: McpSession | undefined;
  private cancelRetry: (() => void) | undefined;
  private cancelHeartbeat: () => void = () => undefined;
  private attempt = 0;
  /** No more checks (no ping, no reopen, no retry): the bot is stopping (stopChecking) or closed the link. */
  private stopped = false;

  constructor(private readonly deps: ControlLinkDeps) {}

  /** The control link, opened now if it is not open (whatever backoff is pending). */
  session(): Promise<McpSession> {
    if (this.control !== undefined) return this.control;
    const opening = this.deps.open((dropped) => {
      this.openControl = undefined;
      if (!dropped) return;
      this.forget(opening);
      this.droppedSession();
    });
    this.control = opening;
    opening.then(
      (session) => {
        this.openControl = session;
        this.up();
      },
      (error: unknown) => {
        if (this.control === opening) this.control = undefined;
        this.trouble(error);
      },
    );
    return opening;
  }

  /** Checks the server now: pings the control link if it is open, else opens it. */
  retryNow(): void {
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    this.check();
  }

  /** Something failed: retry with backoff, unless the failure is lasting or a retry is already due. */
  trouble(error: unknown): void {
    const { health } = this.deps;
    if (this.stopped) return;
    this.cancelHeartbeat();
    if (isLastingFailure(error)) {
      this.cancelRetry?.();
      this.cancelRetry = undefined;
      health.down(error, undefined);
      return;
    }
    if (this.cancelRetry !== undefined) return health.noteError(error);
    const delay = backoffDelay(this.attempt, this.deps.clock.random(), this.deps.backoff);
    this.attempt += 1;
    health.down(error, this.deps.clock.now() + delay);
    this.cancelRetry = this.deps.clock.schedule(() => this.check(), delay);
  }

  /**
   * Stops checking the server: no heartbeat, no reopen, a failure from now on is not trouble (the bot is
   * stopping, its servers with it). The control link stays open, for listings, until close().
   */
  stopChecking(): void {
    this.stopped = true;
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    this.cancelHeartbeat();
  }

  /** Stops checking and closes the control link (one still connecting once it is open, without waiting). */
  async close(): Promise<void> {
    this.stopChecking();
    const control = this.control;
    this.control = undefined;
    void control?.then((session) => session.close()).catch(() => undefined);
    await this.openControl?.close();
  }

  private up(): void {
    if (this.stopped) return;
    this.attempt = 0;
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    this.deps.health.up();
    this.scheduleHeartbeat();
  }

  /** One check: ping the control link if it is open, else open it. */
  private check(): void {
    this.cancelRetry = undefined;
    if (this.stopped) return;
    if (this.control === undefined) {
      this.session().catch(() => undefined);
      return;
    }
    const control = this.control;
    control
      .then((session) => session.ping(PING_TIMEOUT_MS))
      .then(
        () => this.up(),
        (error: unknown) => this.lost(control, error),
      );
  }

  private scheduleHeartbeat(): void {
    this.cancelHeartbeat();
    this.cancelHeartbeat = this.deps.clock.schedule(() => this.check(), this.deps.heartbeatMs);
  }

  private lost(control: Promise<McpSession>, error: unknown): void {
    this.forget(control);
    this.trouble(error);
  }

  /** The control link `control` is gone: closed, and the idle sessions of the server with it (onLost). */
  private forget(control: Promise<McpSession>): void {
    if (this.control === control) this.control = undefined;
    void control.then((session) => session.close()).catch(() => undefined);
    this.deps.onLost();
  }

  /**
   * A session the server closed (the control link's or a person's): trouble once DROP_GRACE_MS passed, unless
   * the bot began to stop meanwhile (stopChecking), which made it the stop's.
   */
  droppedSession(): void {
    const error = droppedError(this.deps.health.server);
    if (!this.stopped) this.deps.clock.schedule(() => this.trouble(error), DROP_GRACE_MS);
  }
}
