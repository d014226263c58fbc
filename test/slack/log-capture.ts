// A pino logger whose JSON lines a test can await, e.g. "the line that says this event was dropped".
import { Writable } from 'node:stream';
import { beforeEach } from 'vitest';
import { createLogger, type Logger } from '../../src/logger.js';

export interface CapturedLogs {
  logger: Logger;
  lines: Record<string, unknown>[];
  /** Resolves with the first line (logged before or after the call) that matches. */
  waitFor(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/**
 * Prints the lines logged during each test that fails (call at the top of a describe or file), so a failure in
 * CI's run can be read afterwards.
 */
export function printLogsOnFailure(logs: CapturedLogs): void {
  beforeEach(({ onTestFailed }) => {
    const from = logs.lines.length;
    onTestFailed(() => {
      console.error(
        logs.lines
          .slice(from)
          .map((line) => JSON.stringify(line))
          .join('\n'),
      );
    });
  });
}

/** The bot's own logger (its redaction included) at `level`, writing into `lines`. */
export function captureLogs(level = 'info'): CapturedLogs {
  const lines: Record<string, unknown>[] = [];
  const waiters: {
    match: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString()) as Record<string, unknown>;
      lines.push(line);
      for (const w of [...waiters]) {
        if (!w.match(line)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
      done();
    },
  });
  return {
    logger: createLogger(level, stream),
    lines,
    waitFor: (match) => {
      const hit = lines.find(match);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}
