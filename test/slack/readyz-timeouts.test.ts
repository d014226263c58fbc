// /readyz's check that gives no verdict in time (READINESS_TIMED_OUT) was answered 503 and logged nothing, so an
// operator saw a replica unready and no reason. It is logged once, then at most every 5 min while checks keep
// timing out (each line counting the timeouts since the one before), and once when checks answer in time again;
// a check that hangs now and then, answering in between, adds no line per probe either (only its first few
// timeouts right after a logged end, src/streak-lines.ts). Time is a stepped clock.
import { describe, expect, it } from 'vitest';
import { READINESS_TIMEOUT_MS, type Readiness } from '../../src/slack/http-server.js';
import { LOG_AGAIN_AFTER_MS } from '../../src/streak-lines.js';
import { PROBE_EVERY_MS, readyzProbes } from './readyz-probes.js';

describe('/readyz checks that time out', () => {
  let hanging = false;
  const readyz = readyzProbes(() =>
    hanging ? new Promise<Readiness>(() => undefined) : Promise.resolve({ ok: true }),
  );
  const { clock, lines } = readyz;
  const { warn: warned, info: told } = lines;

  /** One probe, `PROBE_EVERY_MS` after the last; a hanging check is answered once the clock passes its time. */
  async function probe(hangs: boolean): Promise<number> {
    hanging = hangs;
    return readyz.probe(hangs ? () => clock.advance(READINESS_TIMEOUT_MS) : undefined);
  }

  it('logs the first timeout, then one line per 5 min while checks time out, and one when they answer', async () => {
    expect(await probe(true)).toBe(503);
    expect(warned).toHaveLength(1);
    expect(warned[0]?.[0]).toEqual({ timeoutMs: 1_000, timingOutForMs: 0, timeoutsSinceLastLine: 1 });
    expect(String(warned[0]?.[1])).toContain('/readyz: the readiness check gave no verdict within 1000 ms');

    // Every probe for the next 5 min times out: none adds a line.
    const quiet = Math.floor(LOG_AGAIN_AFTER_MS / (PROBE_EVERY_MS + READINESS_TIMEOUT_MS));
    for (let i = 0; i < quiet; i += 1) expect(await probe(true)).toBe(503);
    expect(warned).toHaveLength(1);

    // The next one, 5 min after the first line, is logged, counting those in between.
    expect(await probe(true)).toBe(503);
    expect(warned).toHaveLength(2);
    expect(warned[1]?.[0]).toMatchObject({ timeoutsSinceLastLine: quiet + 1 });
    expect(told).toEqual([]);

    expect(await probe(false)).toBe(200);
    expect(told).toHaveLength(1);
    expect(told[0]?.[0]).toMatchObject({ timeouts: quiet + 2 });
    expect(told[0]?.[1]).toBe('/readyz: the readiness check answers in time again');
    expect(await probe(false)).toBe(200);
    expect([warned.length, told.length]).toEqual([2, 1]);
  });

  it('tells a timeout right after the end was logged, at most 3 such returns in 5 min, then counts the rest', async () => {
    warned.length = 0;
    told.length = 0;
    // Well inside 5 min of the line saying checks answer in time again: every other probe hangs.
    for (let i = 0; i < 5; i += 1) {
      expect(await probe(true)).toBe(503);
      expect(await probe(false)).toBe(200);
    }
    // The first three returns are told, each with its end; the next two, faster than that, are not (nor theirs).
    expect(warned.map(([fields]) => fields)).toEqual([
      { timeoutMs: 1_000, timingOutForMs: 0, timeoutsSinceLastLine: 1 },
      { timeoutMs: 1_000, timingOutForMs: 0, timeoutsSinceLastLine: 1 },
      { timeoutMs: 1_000, timingOutForMs: 0, timeoutsSinceLastLine: 1 },
    ]);
    expect(told.map(([fields]) => fields)).toEqual([
      { timedOutForMs: PROBE_EVERY_MS, timeouts: 1 },
      { timedOutForMs: PROBE_EVERY_MS, timeouts: 1 },
      { timedOutForMs: PROBE_EVERY_MS, timeouts: 1 },
    ]);
    await clock.advance(LOG_AGAIN_AFTER_MS);
    expect(await probe(true)).toBe(503);
    expect(warned).toHaveLength(4);
    expect(warned[3]?.[0]).toMatchObject({ timingOutForMs: 0, timeoutsSinceLastLine: 3 });
  });
});
