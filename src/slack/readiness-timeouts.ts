// /readyz's checks that gave no verdict within their time (http-server.ts answers READINESS_TIMED_OUT), logged.
// Before, nothing was: an operator saw 503s and no reason. A probe comes every few seconds (Kubernetes: 10 s) for
// as long as something hangs, and a check that hangs now and then may answer in between, so one line per timeout
// would run for ever: a warn line at the first, then at most one every TIMEOUT_LOG_EVERY_MS, however the timeouts
// come (each line counts those left unlogged since the one before), and an info line when checks answer in time
// again after a logged timeout. As app-token-status.ts does for a refused app-level token.
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';

/** How often checks that keep timing out are logged again, in ms: 5 min. */
export const TIMEOUT_LOG_EVERY_MS = 300_000;

/** Checks timing out with no check answering in time between them. */
interface Streak {
  /** When its first check timed out (epoch ms, the injected clock). */
  since: number;
  timeouts: number;
  /** Whether a warn line told of it: only then is its end logged. */
  logged: boolean;
}

export class ReadinessTimeouts {
  private streak: Streak | undefined;
  /** When the last warn line was written (epoch ms); undefined before the first. */
  private loggedAt: number | undefined;
  /** Timeouts since the last warn line that none told of. */
  private unlogged = 0;

  constructor(
    private readonly deps: {
      logger: Pick<Logger, 'warn' | 'info'>;
      clock: Pick<Clock, 'now'>;
      /** The check's time, in ms (READINESS_TIMEOUT_MS): named in the line. */
      timeoutMs: number;
    },
  ) {}

  /** A check gave no verdict in time (answered 503). */
  timedOut(): void {
    const now = this.deps.clock.now();
    const streak = (this.streak ??= { since: now, timeouts: 0, logged: false });
    streak.timeouts += 1;
    if (this.loggedAt !== undefined && now - this.loggedAt < TIMEOUT_LOG_EVERY_MS) {
      this.unlogged += 1;
      return;
    }
    this.deps.logger.warn(
      {
        timeoutMs: this.deps.timeoutMs,
        timingOutForMs: now - streak.since,
        timeoutsSinceLastLine: this.unlogged + 1,
      },
      `/readyz: the readiness check gave no verdict within ${this.deps.timeoutMs} ms (answered 503); logged again at most every 5 min while checks time out`,
    );
    this.loggedAt = now;
    this.unlogged = 0;
    streak.logged = true;
  }

  /** A check settled in time (a verdict, or a failure, which is logged where it is caught). */
  answered(): void {
    const streak = this.streak;
    if (!streak) return;
    this.streak = undefined;
    if (!streak.logged) return;
    this.deps.logger.info(
      { timedOutForMs: this.deps.clock.now() - streak.since, timeouts: streak.timeouts },
      '/readyz: the readiness check answers in time again',
    );
  }
}
