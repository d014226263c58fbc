// Whether Slack takes the app-level token (SLACK_APP_TOKEN) while the bot runs in Socket Mode. A token revoked,
// expired or of a disabled app is refused at the next reconnect (Slack's `disconnect`, a dropped socket): the
// bot then receives nothing, so /readyz answers 503 naming the refusal (/healthz stays 200: the process and
// its state are fine), one error line says so with the fix (the texts start-up uses) and again every
// REFUSAL_LOG_EVERY_MS while refused, and an info line says when a reconnect succeeds again. The Socket Mode
// library's own lines for each attempt go to debug (socket-outage-log.ts, which tells the other failures).
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { refusalError, type AppTokenRefusalCode } from './app-token-refusals.js';

/** How often a refusal that lasts is logged again, in ms: 5 min (a reconnect is tried at most 5 min apart). */
const REFUSAL_LOG_EVERY_MS = 300_000;

/** Socket Mode's part of /readyz: only `refused` makes the bot unready (a reconnect in progress does not). */
export type SocketModeReadiness =
  { state: 'connected' | 'reconnecting' } | { state: 'refused'; refusal: AppTokenRefusalCode; error: string };

interface Refusal {
  code: AppTokenRefusalCode;
  /** The ConfigError's message: SLACK_APP_TOKEN, the code and the fix. */
  error: string;
  /** When Slack first refused the token, and when it was last logged (epoch ms, the injected clock). */
  since: number;
  loggedAt: number;
}

export class AppTokenStatus {
  private running = false;
  private connected = false;
  private refusal: Refusal | undefined;

  constructor(private readonly deps: { logger: Logger; clock: Pick<Clock, 'now'> }) {}

  /** Start-up is over: from now on a refusal is reported here (before, it ends start-up instead). */
  started(): void {
    this.running = true;
    this.connected = true;
  }

  /** Slack refused the app-level token (AppTokenWatch, as the answer arrives). */
  refused(code: AppTokenRefusalCode): void {
    if (!this.running) return;
    const now = this.deps.clock.now();
    const last = this.refusal;
    const fresh = last?.code !== code || now - last.loggedAt >= REFUSAL_LOG_EVERY_MS;
    if (!fresh) return;
    const error = refusalError(code).message;
    this.refusal = { code, error, since: last?.since ?? now, loggedAt: now };
    this.deps.logger.error(
      { key: 'SLACK_APP_TOKEN', refusal: code, refusedForMs: now - (last?.since ?? now) },
      `Socket Mode cannot reconnect: ${error}`,
    );
  }

  /** A connection said hello: a refusal is over. */
  hello(): void {
    this.connected = true;
    const last = this.refusal;
    if (!last) return;
    this.refusal = undefined;
    this.deps.logger.info(
      { key: 'SLACK_APP_TOKEN', refusal: last.code, refusedForMs: this.deps.clock.now() - last.since },
      'Socket Mode reconnected: Slack takes SLACK_APP_TOKEN again',
    );
  }

  /** The connection dropped; a reconnect follows. */
  dropped(): void {
    this.connected = false;
  }

  readiness(): SocketModeReadiness {
    const refusal = this.refusal;
    if (refusal) return { state: 'refused', refusal: refusal.code, error: refusal.error };
    return { state: this.connected ? 'connected' : 'reconnecting' };
  }
}
