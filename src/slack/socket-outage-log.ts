// Socket Mode's attempts to connect while it is down (at start-up, after a drop), as an operator reads them.
// @slack/socket-mode logged each failed attempt itself at error level ("Failed to retrieve a new WSS URL",
// "WebSocket error!"), one set per attempt of the backoff (1 s doubling to 5 min, socket-link.ts), for as long
// as Slack was away. Here the link owns the story (streak-lines.ts): the first failure a warn line with why
// and the next attempt's wait, then at most one line every 5 min with the count, and an info line once
// connected again saying how long it was down; the library's own lines during an attempt go to debug. A
// refused app-level token is app-token-status.ts's to tell (an error line with the fix), not counted here.
import type { Logger as BoltLogger } from '@slack/bolt';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { appTokenRefused } from './app-token-refusals.js';
import { classifySlackError } from './outbox/index.js';
import { StreakLines } from '../streak-lines.js';

export class SocketOutageLog {
  private readonly failures: StreakLines;
  /** When the link went down (start-up began, a drop; epoch ms, the injected clock); undefined while connected. */
  private downSince: number | undefined;
  /** An attempt is under way: the library's lines are about it, and told here. */
  private attempting = false;

  constructor(private readonly deps: { logger: Pick<Logger, 'warn' | 'info'>; clock: Pick<Clock, 'now'> }) {
    this.failures = new StreakLines(deps.clock);
  }

  /** The link is down (start-up, a drop) until a connection says hello; the first call since counts. */
  down(): void {
    this.downSince ??= this.deps.clock.now();
  }

  /** Runs one attempt (apps.connections.open, then the WebSocket), the library's lines lowered meanwhile. */
  async attempt(start: () => Promise<unknown>): Promise<void> {
    this.attempting = true;
    try {
      await start();
    } finally {
      this.attempting = false;
    }
  }

  /** An attempt failed with `failure` (undefined: the WebSocket closed unsaid); the next comes in `nextAttemptInMs`. */
  failed(failure: unknown, nextAttemptInMs: number): void {
    const why = failureText(failure);
    if (why === undefined) return;
    const line = this.failures.occurred();
    if (!line) return;
    const now = this.deps.clock.now();
    const fields = {
      failure: why,
      failedAttempts: line.count,
      attemptsSinceLastLine: line.sinceLastLine,
      downForMs: now - (this.downSince ?? now),
      nextAttemptInMs,
    };
    const next = `next attempt in ${seconds(nextAttemptInMs)}`;
    this.deps.logger.warn(
      fields,
      line.count === 1
        ? `Socket Mode cannot connect to Slack (${why}); ${next}, logged again at most every 5 min while it cannot`
        : `Socket Mode still cannot connect to Slack after ${line.count} attempts (${why}); ${next}`,
    );
  }

  /** A connection said hello: the outage is over. */
  connected(): void {
    const since = this.downSince;
    this.downSince = undefined;
    const end = this.failures.ended();
    if (!end || since === undefined) return;
    const downForMs = this.deps.clock.now() - since;
    this.deps.logger.info(
      { downForMs, failedAttempts: end.count },
      `Socket Mode connected to Slack again after ${seconds(downForMs)} down (${end.count} failed attempts)`,
    );
  }

  /** `logger` for the Socket Mode library: its error and warn lines go to debug during an attempt (told here). */
  quiet(logger: BoltLogger): BoltLogger {
    return {
      debug: (...msg: unknown[]) => logger.debug(...msg),
      info: (...msg: unknown[]) => logger.info(...msg),
      warn: (...msg: unknown[]) => (this.attempting ? logger.debug(...msg) : logger.warn(...msg)),
      error: (...msg: unknown[]) => (this.attempting ? logger.debug(...msg) : logger.error(...msg)),
      setLevel: (level) => logger.setLevel(level),
      getLevel: () => logger.getLevel(),
      setName: (name) => logger.setName(name),
    };
  }
}

/**
 * Why an attempt failed, as the line says it; undefined for a refused app-level token (app-token-status.ts).
 * Slack's answer by its code; Slack not reached, or the WebSocket's own failure, by the error's text.
 */
function failureText(failure: unknown): string | undefined {
  if (failure === undefined) return "the WebSocket closed before Slack's hello";
  const { error: code } = classifySlackError(failure);
  if (appTokenRefused(code, failure)) return undefined;
  // Slack not reached: the Web API client's text names the cause (fetch failed, a refused connection…).
  if (code === 'request_error' && failure instanceof Error) return failure.message;
  // Not a Web API answer: the WebSocket's own failure (SMWebsocketError: …), a reply without a URL.
  if (code === 'unexpected_error') {
    return failure instanceof Error
      ? `${failure.name}: ${failure.message}`
      : 'a failure that is not an Error';
  }
  return `apps.connections.open: ${code}`;
}

/** `ms` as whole seconds, for a line's text (its fields keep the ms). */
function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
