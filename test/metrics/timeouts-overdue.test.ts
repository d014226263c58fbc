// elicit_relay_timeouts_overdue_seconds: how far past its deadline (Redis TIME) the most overdue pending question
// is, read at scrape time from the due index, so that timeouts that stopped (a worker taking no job, no replica
// running timeouts) are seen instead of questions staying pending silently. A hung Redis never holds a scrape.
import { describe, expect, it } from 'vitest';
import { Metrics, metricSources, type WatchedParts } from '../../src/metrics/index.js';
import type { QuestionStore } from '../../src/store/index.js';
import { uniquePrefix } from '../setup/context.js';
import { parseSamples, valueOf } from '../support/prometheus.js';
import { until } from '../support/until.js';
import { newQuestion, openStore, rawRedis, redisTimeMs } from '../store/helpers.js';

const NAME = 'elicit_relay_timeouts_overdue_seconds';

/** A Metrics watching stand-ins for every part but the timeouts given. */
function watching(timeouts: NonNullable<WatchedParts['timeouts']>): Metrics {
  const metrics = new Metrics({ now: () => 0 });
  const parts: WatchedParts = {
    relay: { waiting: 0 },
    outbox: { backlog: () => Promise.resolve({ depth: 0 }) },
    hub: { status: () => [] },
    state: { answers: () => Promise.resolve(true), memory: () => Promise.resolve(undefined) },
    timeouts,
  };
  metrics.watch(metricSources(parts));
  return metrics;
}

async function overdueSeconds(metrics: Metrics): Promise<number | undefined> {
  return valueOf(parseSamples((await metrics.scrape()).body), NAME);
}

describe(NAME, () => {
  it('is how far past its deadline, on Redis TIME, the most overdue pending question is', async () => {
    const store: QuestionStore = await openStore(uniquePrefix(), 'holder-overdue');
    const redis = rawRedis();
    // No timeouts are started: both stay pending, the first past its deadline, the second not yet due.
    const late = await store.create(newQuestion({ timeoutMs: 50 }));
    await store.create(newQuestion({ timeoutMs: 600_000 }));
    await until('the first question is a second past its deadline', 10_000, async () => {
      return (await redisTimeMs(redis)) > late.deadline + 1_000;
    });
    const metrics = watching(store);

    const before = await redisTimeMs(redis);
    const seconds = await overdueSeconds(metrics);
    const after = await redisTimeMs(redis);

    expect(seconds).toBeGreaterThanOrEqual((before - late.deadline) / 1000);
    expect(seconds).toBeLessThanOrEqual((after - late.deadline) / 1000);
  });

  it('is 0 when no question is pending, or none is past its deadline', async () => {
    const store = await openStore(uniquePrefix(), 'holder-overdue');
    const metrics = watching(store);
    expect(await overdueSeconds(metrics)).toBe(0);
    await store.create(newQuestion({ timeoutMs: 600_000 }));
    expect(await overdueSeconds(metrics)).toBe(0);
  });

  it('answers the scrape while Redis hangs, keeping its last value and one read in flight', async () => {
    let reads = 0;
    const metrics = watching({
      overdueMs: () => {
        reads += 1;
        // The first read answers 90 s; the next ones never do (a hung Redis).
        return reads === 1 ? Promise.resolve(90_000) : new Promise<number>(() => undefined);
      },
    });
    expect(await overdueSeconds(metrics)).toBe(90);
    expect(await overdueSeconds(metrics)).toBe(90);
    expect(await overdueSeconds(metrics)).toBe(90);
    expect(reads).toBe(2);
  });
});
