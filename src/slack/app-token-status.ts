// Whether Slack takes the app-level token (SLACK_APP_TOKEN) while the bot runs in Socket Mode. A token revoked,
// expired or of a disabled app is refused at the next reconnect (Slack's `disconnect`, a dropped socket): the
// bot then receives nothing, so /readyz answers 503 naming the refusal (/healthz stays 200: the process and
// its state are fine), one error line says so with the fix (the texts start-up uses), again at most every 5 min
// while refused with the count and at once for a different refusal, and an info line says when a reconnect
// succeeds again (streak-lines.ts). The Socket Mode library's own lines for each attempt go to debug
// (socket-outage-log.ts, which tells the other failures).
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { refusalError, type AppTokenRefusalCode } from './app-token-refusals.js';
import { StreakLines } from '../streak-lines.js';

/** Socket Mode's part of /readyz: only `refused` makes the bot unready (a reconnect in progress does not). */
export type SocketModeReadiness =
  { state: 'connected' | 'reconnecting' } | { state: 'refused'; refusal: AppTokenRefusalCode; error: string };

interface Refusal {
  code: AppTokenRefusalCode;
  /** The ConfigError's message: SLACK_APP_TOKEN, the code and the fix. */
  error: string;
}

export class AppTokenStatus {
  private running = false;
  private connected = false;
  private refusal: Refusal | undefined;
  private readonly lines: StreakLines;

  constructor(private readonly deps: { logger: Logger; clock: Pick<Clock, 'now'> }) {
    this.lines = new StreakLines(deps.clock);
  }

  /** Start-up is over: from now on a refusal is reported here (before, it ends start-up instead). */
  started(): void {
    this.running = true;
    this.connected = true;
  }

  /** Slack refused the app-level token (AppTokenWatch, as the answer arrives). */
  refused(code: AppTokenRefusalCode): void {
    if (!this.running) return;
    const refusal = this.refusal?.code === code ? this.refusal : { code, error: refusalError(code).message };
    this.refusal = refusal;
    const line = this.lines.occurred(code);
    if (!line) return;
    this.deps.logger.error(
      {
        key: 'SLACK_APP_TOKEN',
        refusal: code,
        refusedForMs: line.forMs,
        refusals: line.count,
        refusalsSinceLastLine: line.sinceLastLine,
      },
      `Socket Mode cannot reconnect: ${refusal.error}`,
    );
  }

  /** A connection said hello: a refusal is over. */
  hello(): void {
    this.connected = true;
    const last = this.refusal;
    this.refusal = undefined;
    const end = this.lines.ended();
    if (!end) return;
    this.deps.logger.info(
      { key: 'SLACK_APP_TOKEN', refusal: last?.code, refusedForMs: end.forMs, refusals: end.count },
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
