// The /readyz log tests' setting: the bot's HTTP server on a stepped clock with the test's readiness check, its
// log lines kept by level, probed as Kubernetes does. One setting a describe: its hooks start the server before
// the describe's tests and close it after them.
import { afterAll, beforeAll } from 'vitest';
import { startHttpServer, type Readiness, type RunningHttpServer } from '../../src/slack/http-server.js';
import { steppedClock, type SteppedClock } from '../support/stepped-clock.js';

/** How often a prober (Kubernetes' default periodSeconds) asks, in ms. */
export const PROBE_EVERY_MS = 10_000;

export interface ReadyzProbes {
  clock: SteppedClock;
  /** The arguments of each line the server logged, by level, in order. */
  lines: { error: unknown[][]; warn: unknown[][]; info: unknown[][] };
  /**
   * One probe, `PROBE_EVERY_MS` after the last; `whileChecking` runs once its check started (its timeout timer
   * set), before the answer is awaited. Resolves with the answer's status.
   */
  probe: (whileChecking?: () => Promise<void>) => Promise<number>;
}

/** The setting of one describe, whose /readyz asks `check`. */
export function readyzProbes(check: () => Promise<Readiness>): ReadyzProbes {
  const clock = steppedClock();
  const lines: ReadyzProbes['lines'] = { error: [], warn: [], info: [] };
  let server: RunningHttpServer | undefined;
  /** Called with each check /readyz starts (its timer is scheduled by then). */
  let asked: () => void = () => undefined;
  beforeAll(async () => {
    server = await startHttpServer({
      port: 0,
      clock,
      schedule: clock.schedule,
      live: () => true,
      ready: () => {
        asked();
        return check();
      },
      logger: {
        error: (...args: unknown[]) => void lines.error.push(args),
        warn: (...args: unknown[]) => void lines.warn.push(args),
        info: (...args: unknown[]) => void lines.info.push(args),
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  const probe = async (whileChecking?: () => Promise<void>): Promise<number> => {
    if (server === undefined) throw new Error('the server starts in beforeAll');
    await clock.advance(PROBE_EVERY_MS);
    const started = new Promise<void>((resolve) => (asked = resolve));
    const response = fetch(`http://127.0.0.1:${server.port}/readyz`);
    await started;
    await whileChecking?.();
    const { status } = await response;
    return status;
  };
  return { clock, lines, probe };
}
