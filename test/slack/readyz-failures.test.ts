// /readyz's check that fails (READINESS_FAILED) was logged at error level on every probe, every 10 s in
// Kubernetes, for as long as it failed. It is logged once with the error, then at most every 5 min while checks
// keep failing (each line counting the failures since the one before), and once when a check gives a verdict
// again; a check that fails now and then, answering in between, adds no line per probe either (only its first
// few failures right after a logged end, src/streak-lines.ts). Time is a stepped clock.
import { describe, expect, it } from 'vitest';
import type { Readiness } from '../../src/slack/http-server.js';
import { LOG_AGAIN_AFTER_MS } from '../../src/streak-lines.js';
import { PROBE_EVERY_MS, readyzProbes } from './readyz-probes.js';

describe('/readyz checks that fail', () => {
  let failure: Error | undefined;
  const readyz = readyzProbes(() =>
    failure ? Promise.reject(failure) : Promise.resolve<Readiness>({ ok: true }),
  );
  const { clock, lines } = readyz;
  const { error: errors, info: told } = lines;

  /** One probe, `PROBE_EVERY_MS` after the last, its check failing with `fails` (or answering when undefined). */
  async function probe(fails: Error | undefined): Promise<number> {
    failure = fails;
    return readyz.probe();
  }

  it('logs the first failure, then one line per 5 min while checks fail, and one when they answer', async () => {
    const refused = new Error('connect ECONNREFUSED 10.1.2.3:6379');
    expect(await probe(refused)).toBe(503);
    expect(errors).toEqual([
      [
        { err: refused, failingForMs: 0, failuresSinceLastLine: 1 },
        '/readyz: the readiness check failed (answered 503); logged again at most every 5 min while checks fail',
      ],
    ]);

    // Every probe for the next 5 min fails: none adds a line.
    const quiet = LOG_AGAIN_AFTER_MS / PROBE_EVERY_MS - 1;
    for (let i = 0; i < quiet; i += 1) expect(await probe(refused)).toBe(503);
    expect(errors).toHaveLength(1);

    // The next one, 5 min after the first line, is logged with its own error, counting those in between.
    const timedOut = new Error('Redis gave no PONG');
    expect(await probe(timedOut)).toBe(503);
    expect(errors).toHaveLength(2);
    expect(errors[1]?.[0]).toEqual({
      err: timedOut,
      failingForMs: LOG_AGAIN_AFTER_MS,
      failuresSinceLastLine: quiet + 1,
    });
    expect(told).toEqual([]);

    expect(await probe(undefined)).toBe(200);
    expect(told).toEqual([
      [
        { failedForMs: LOG_AGAIN_AFTER_MS + PROBE_EVERY_MS, failures: quiet + 2 },
        '/readyz: the readiness check gives a verdict again',
      ],
    ]);
    expect(await probe(undefined)).toBe(200);
    expect([errors.length, told.length]).toEqual([2, 1]);
  });

  it('tells a failure right after the end was logged, at most 3 such returns in 5 min, then counts the rest', async () => {
    errors.length = 0;
    told.length = 0;
    const flaky = new Error('flaky');
    // Well inside 5 min of the line saying checks give a verdict again: every other probe fails.
    for (let i = 0; i < 5; i += 1) {
      expect(await probe(flaky)).toBe(503);
      expect(await probe(undefined)).toBe(200);
    }
    // The first three returns are told, each with its end; the next two, faster than that, are not (nor theirs).
    expect(errors.map(([fields]) => fields)).toEqual([
      { err: flaky, failingForMs: 0, failuresSinceLastLine: 1 },
      { err: flaky, failingForMs: 0, failuresSinceLastLine: 1 },
      { err: flaky, failingForMs: 0, failuresSinceLastLine: 1 },
    ]);
    expect(told.map(([fields]) => fields)).toEqual([
      { failedForMs: PROBE_EVERY_MS, failures: 1 },
      { failedForMs: PROBE_EVERY_MS, failures: 1 },
      { failedForMs: PROBE_EVERY_MS, failures: 1 },
    ]);
    await clock.advance(LOG_AGAIN_AFTER_MS);
    expect(await probe(flaky)).toBe(503);
    expect(errors).toHaveLength(4);
    expect(errors[3]?.[0]).toMatchObject({ failingForMs: 0, failuresSinceLastLine: 3 });
  });
});
