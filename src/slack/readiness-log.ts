// /readyz's checks that gave no verdict in time (READINESS_TIMED_OUT) or failed (READINESS_FAILED), logged
// sparingly (streak-lines.ts): a probe comes every few seconds (Kubernetes: 10 s) for as long as something hangs
// or fails, and a failure was logged at error level on every one of them. Each trouble gets a line at its first
// occurrence (a timeout a warn line, a failure an error line with the error), then at most one every 5 min
// counting those in between, and an info line when checks answer again after a logged one. As
// app-token-status.ts does for a refused app-level token.
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { StreakLines } from '../streak-lines.js';

export class ReadinessLog {
  private readonly timeouts: StreakLines;
  private readonly failures: StreakLines;

  constructor(
    private readonly deps: {
      logger: Pick<Logger, 'error' | 'warn' | 'info'>;
      clock: Pick<Clock, 'now'>;
      /** The check's time, in ms (READINESS_TIMEOUT_MS): named in the line. */
      timeoutMs: number;
    },
  ) {
    this.timeouts = new StreakLines(deps.clock);
    this.failures = new StreakLines(deps.clock);
  }

  /** A check gave no verdict in time (answered 503). */
  timedOut(): void {
    const line = this.timeouts.occurred();
    if (!line) return;
    this.deps.logger.warn(
      {
        timeoutMs: this.deps.timeoutMs,
        timingOutForMs: line.forMs,
        timeoutsSinceLastLine: line.sinceLastLine,
      },
      `/readyz: the readiness check gave no verdict within ${this.deps.timeoutMs} ms (answered 503); logged again at most every 5 min while checks time out`,
    );
  }

  /** A check failed in time (answered 503): its error is logged, never answered (its text may carry a password). */
  failed(error: unknown): void {
    this.inTime();
    const line = this.failures.occurred();
    if (!line) return;
    this.deps.logger.error(
      { err: error, failingForMs: line.forMs, failuresSinceLastLine: line.sinceLastLine },
      '/readyz: the readiness check failed (answered 503); logged again at most every 5 min while checks fail',
    );
  }

  /** A check gave its verdict in time. */
  answered(): void {
    this.inTime();
    const end = this.failures.ended();
    if (!end) return;
    this.deps.logger.info(
      { failedForMs: end.forMs, failures: end.count },
      '/readyz: the readiness check gives a verdict again',
    );
  }

  /** A check settled in time (a verdict, or a failure): timeouts are over. */
  private inTime(): void {
    const end = this.timeouts.ended();
    if (!end) return;
    this.deps.logger.info(
      { timedOutForMs: end.forMs, timeouts: end.count },
      '/readyz: the readiness check answers in time again',
    );
  }
}
