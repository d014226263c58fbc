// /readyz's answer (http-server.ts routes the probe here): the readiness check's verdict within
// READINESS_TIMEOUT_MS, or a fixed 503 body when it gives none in time or fails; both logged sparingly
// (readiness-log.ts), since a prober asks every few seconds for as long as the trouble lasts.
import type { ServerResponse } from 'node:http';
import type { Schedule } from '../clock.js';
import type { ReadinessLog } from './readiness-log.js';

/** Longest /readyz waits for `ready()` before answering 503 itself, in ms (its Redis probe gives up at 500 ms). */
export const READINESS_TIMEOUT_MS = 1_000;

export interface Readiness {
  ok: boolean;
  [detail: string]: unknown;
}

/**
 * /readyz's 503 bodies when `ready()` gives no verdict. Fixed texts: the probe is unauthenticated on the public
 * port, and an error's own text can carry a Redis host, a path or a URL with its password (it goes to the log).
 */
export const READINESS_TIMED_OUT: Readiness = { ok: false, error: 'readiness check timed out' };
export const READINESS_FAILED: Readiness = { ok: false, error: 'readiness check failed' };

/** What /readyz asks, what times its check out, and what logs its troubles (none without a logger). */
export interface ReadinessProbe {
  ready: () => Promise<Readiness>;
  schedule: Schedule;
  log: ReadinessLog | undefined;
}

/**
 * Answers /readyz with `ready()`'s verdict, READINESS_TIMED_OUT once READINESS_TIMEOUT_MS pass without one, or
 * READINESS_FAILED when it fails (the error logged, not answered).
 */
export async function answerReadiness(
  res: ServerResponse,
  { ready, schedule, log }: ReadinessProbe,
): Promise<void> {
  let cancelTimer: (() => void) | undefined;
  const late = new Promise<undefined>((resolve) => {
    cancelTimer = schedule(() => resolve(undefined), READINESS_TIMEOUT_MS);
  });
  try {
    const readiness = await Promise.race([ready(), late]);
    if (readiness === undefined) log?.timedOut();
    else log?.answered();
    json(res, readiness?.ok ? 200 : 503, readiness ?? READINESS_TIMED_OUT);
  } catch (error) {
    log?.failed(error);
    json(res, 503, READINESS_FAILED);
  } finally {
    cancelTimer?.();
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
