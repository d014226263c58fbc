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
// While it is down the link tells the story (socket-outage-log.ts: the first failure, then at most a line every
// 5 min, and the end), not the library's error lines at each attempt.
import type { Clock } from '../clock.js';
import { backoffDelay, DEFAULT_BACKOFF } from '../mcp/backoff.js';
import type { AppTokenStatus } from './app-token-status.js';
import type { SocketOutageLog } from './socket-outage-log.js';

/** What is used of @slack/socket-mode's SocketModeClient (Bolt's SocketModeReceiver's `client`). */
export interface SocketClient {
  /** apps.connections.open, then the WebSocket; resolves on Slack's hello, rejects on any failure. */
  start(): Promise<unknown>;
  disconnect(): Promise<void>;
  on(event: 'connected' | 'disconnected', listener: () => void): unknown;
  /** The WebSocket's failure (SMWebsocketError); `start()` then rejects with nothing, after 'disconnected'. */
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

export class SocketModeLink {
  private phase: 'starting' | 'running' | 'stopped' = 'starting';
  /** A connection said hello and has not dropped since. */
  private connected = false;
  private attempting = false;
  /** Failed attempts since the last hello: the backoff's exponent. */
  private failures = 0;
  private cancelRetry: (() => void) | undefined;
  /** The WebSocket's last failure during the attempt under way: why it failed when `start()` does not say. */
  private socketError: unknown;

  constructor(
    private readonly client: SocketClient,
    private readonly deps: {
      status: AppTokenStatus;
      outage: SocketOutageLog;
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
      deps.outage.connected();
      if (this.phase === 'running') deps.status.hello();
    });
    client.on('error', (error) => {
      this.socketError = error;
    });
    client.on('disconnected', () => {
      this.connected = false;
      if (this.phase !== 'running') return;
      deps.status.dropped();
      deps.outage.down();
      // An attempt in flight fails on it and schedules the next one itself.
      if (!this.attempting && !this.cancelRetry) this.retryLater();
    });
  }

  /** Start-up: resolves once Slack said hello; rejects with the first failure `passing` does not forgive. */
  async open(): Promise<void> {
    this.deps.outage.down();
    for (;;) {
      try {
        await this.attempt();
        break;
      } catch (error) {
        if (!this.deps.passing(error)) throw error;
        const delay = this.nextDelay(error);
        this.deps.outage.failed(this.failureOf(error), delay);
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

  /** One attempt, told by the outage log; `socketError` is this attempt's own. */
  private attempt(): Promise<void> {
    this.socketError = undefined;
    return this.deps.outage.attempt(() => this.client.start());
  }

  /** What failed an attempt: `start()`'s rejection, or the WebSocket's failure when it rejected with nothing. */
  private failureOf(error: unknown): unknown {
    return error === undefined ? this.socketError : error;
  }

  /** Schedules the next attempt; `failed`: the last one failed with `failure`, told by the outage log. */
  private retryLater(failed?: { failure: unknown }): void {
    const delay = this.nextDelay(failed?.failure);
    if (failed) this.deps.outage.failed(failed.failure, delay);
    this.cancelRetry = this.deps.clock.schedule(() => {
      this.cancelRetry = undefined;
      void this.reconnect();
    }, delay);
  }

  private async reconnect(): Promise<void> {
    this.attempting = true;
    let failed: { failure: unknown } | undefined;
    try {
      await this.attempt();
    } catch (error) {
      failed = { failure: this.failureOf(error) };
    } finally {
      this.attempting = false;
    }
    if (this.phase === 'stopped') {
      // A stop that came while this attempt ran: the connection it made is closed here.
      if (this.connected) await this.client.disconnect();
      return;
    }
    // Connected, then dropped before this ran on: the drop starts the next outage, no attempt failed.
    if (!this.connected) this.retryLater(failed);
  }
}
