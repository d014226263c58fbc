// Socket Mode's connection over the bot's life, connected and reconnected here, not by @slack/socket-mode: its
// client is built with autoReconnectEnabled: false. Its own reconnection (3.1) lets a reconnect's rejection
// reach nothing, so invalid_auth, not_authed or account_inactive after start-up crashed the process, and it
// asks again after the other refusals 5 s, 10 s, 15 s… apart, uncapped, on timers a test cannot move. Here:
// - start-up (`open`) tries until Slack says hello, again after a passing failure (the WebSocket, Slack's
//   internal_error…), and rejects with a failure no retry mends (a refused token, Slack not reached);
// - after a drop (Slack's `disconnect`, a lost socket) it tries again with backoff (1 s doubling to 5 min,
//   jittered, on the injected clock) until a connection says hello, whatever fails meanwhile;
// - either way an attempt Slack answered 429 waits at least its Retry-After (apps.connections.open is Tier 1).
// Each attempt is one apps.connections.open (receivers.ts gives the library's WebClient no retries of its own).
import type { Clock } from '../clock.js';
import { backoffDelay, DEFAULT_BACKOFF } from '../mcp/backoff.js';
import type { AppTokenStatus } from './app-token-status.js';

/** What is used of @slack/socket-mode's SocketModeClient (Bolt's SocketModeReceiver's `client`). */
export interface SocketClient {
  /** apps.connections.open, then the WebSocket; resolves on Slack's hello, rejects on any failure. */
  start(): Promise<unknown>;
  disconnect(): Promise<void>;
  on(event: 'connected' | 'disconnected', listener: () => void): unknown;
}

export class SocketModeLink {
  private phase: 'starting' | 'running' | 'stopped' = 'starting';
  /** A connection said hello and has not dropped since. */
  private connected = false;
  private attempting = false;
  /** Failed attempts since the last hello: the backoff's exponent. */
  private failures = 0;
  private cancelRetry: (() => void) | undefined;

  constructor(
    private readonly client: SocketClient,
    private readonly deps: {
      status: AppTokenStatus;
      clock: Pick<Clock, 'schedule' | 'random'>;
      /** At start-up: whether a failure may pass (tried again) rather than end start-up. */
      passing: (error: unknown) => boolean;
      /** The wait Slack asked for after a failure (a 429's Retry-After), ms; undefined when none. */
      retryAfterMs: (error: unknown) => number | undefined;
    },
  ) {
    client.on('connected', () => {
      this.connected = true;
      this.failures = 0;
      if (this.phase === 'running') deps.status.hello();
    });
    client.on('disconnected', () => {
      this.connected = false;
      if (this.phase !== 'running') return;
      deps.status.dropped();
      // An attempt in flight fails on it and schedules the next one itself.
      if (!this.attempting && !this.cancelRetry) this.retryLater();
    });
  }

  /** Start-up: resolves once Slack said hello; rejects with the first failure `passing` does not forgive. */
  async open(): Promise<void> {
    for (;;) {
      try {
        await this.client.start();
        break;
      } catch (error) {
        if (!this.deps.passing(error)) throw error;
        const delay = this.nextDelay(error);
        await new Promise<void>((resolve) => this.deps.clock.schedule(resolve, delay));
      }
    }
    this.failures = 0;
    this.phase = 'running';
    this.deps.status.started();
  }

  /** No more reconnects; the caller disconnects the client. */
  stop(): void {
    this.phase = 'stopped';
    this.cancelRetry?.();
    this.cancelRetry = undefined;
  }

  /** The backoff's next wait, or longer when `failure` carries Slack's Retry-After. */
  private nextDelay(failure?: unknown): number {
    const delay = backoffDelay(this.failures, this.deps.clock.random(), DEFAULT_BACKOFF);
    this.failures += 1;
    const asked = failure === undefined ? undefined : this.deps.retryAfterMs(failure);
    return Math.max(delay, asked ?? 0);
  }

  private retryLater(failure?: unknown): void {
    this.cancelRetry = this.deps.clock.schedule(() => {
      this.cancelRetry = undefined;
      void this.reconnect();
    }, this.nextDelay(failure));
  }

  private async reconnect(): Promise<void> {
    this.attempting = true;
    let failure: unknown;
    try {
      await this.client.start();
    } catch (error) {
      // Why is logged where it is known: a refusal by AppTokenStatus, anything else by the library.
      failure = error;
    } finally {
      this.attempting = false;
    }
    if (this.phase === 'stopped') {
      // A stop that came while this attempt ran: the connection it made is closed here.
      if (this.connected) await this.client.disconnect();
      return;
    }
    if (!this.connected) this.retryLater(failure);
  }
}
