// GET /metrics while Redis hangs (SIGSTOP: connections stay open, nothing answers). README's Metrics table:
// `elicit_relay_redis_up` is "1 when Redis answered a PING within 500 ms at scrape time", and
// ops/prometheus/alerts.yml's ElicitRelayRedisUnavailable fires on `elicit_relay_redis_up == 0`. So a scrape
// during an outage answers, promptly, with redis_up 0, the outbox's gauges at their last value (the outbox read
// is bounded as the PING is), and so does the next scrape while the first one's outbox read still hangs.
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { Metrics } from '../../src/metrics/index.js';
import { startPrivateRedis, type PrivateRedis } from '../faults/support/redis-server.js';
import { parseSamples, valueOf } from '../support/prometheus.js';
import { startHarness, type Harness } from './harness.js';

/** Prometheus' default scrape_timeout is 10 s: a bound on the answer (~0.5 s expected), not a speed check. */
const SCRAPE_TIMEOUT_MS = 5_000;

let redis: PrivateRedis | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  redis?.resume();
  await harness?.close();
  await redis?.stop();
  [harness, redis] = [undefined, undefined];
});

interface Scraped {
  status: number;
  redisUp: number | undefined;
  depth: number | undefined;
}

async function scrape(port: number): Promise<Scraped | string> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS),
    });
    const samples = parseSamples(await res.text());
    return {
      status: res.status,
      redisUp: valueOf(samples, 'elicit_relay_redis_up'),
      depth: valueOf(samples, 'elicit_relay_outbox_depth'),
    };
  } catch (error) {
    return `no answer within ${SCRAPE_TIMEOUT_MS} ms (${String(error)})`;
  }
}

describe('GET /metrics with Redis hung', () => {
  it(
    'answers with elicit_relay_redis_up 0 while Redis is SIGSTOPped, the outbox gauges kept',
    { timeout: 60_000 },
    async () => {
      redis = await startPrivateRedis({ aof: false });
      const h = (harness = await startHarness({ redisUrl: redis.url }));
      const before = await scrape(h.relay.port);
      expect(before).toMatchObject({ status: 200, redisUp: 1 });
      const depth = typeof before === 'string' ? undefined : before.depth;
      expect(depth, 'the outbox depth before the hang').toBeTypeOf('number');
      redis.pause();
      // The second scrape comes while the first one's outbox read still waits on the hung Redis.
      for (const scrapeNo of [1, 2]) {
        expect(await scrape(h.relay.port), `scrape ${scrapeNo} while Redis hangs`).toEqual({
          status: 200,
          redisUp: 0,
          depth,
        });
      }
      redis.resume();
      expect(await scrape(h.relay.port)).toMatchObject({ status: 200, redisUp: 1 });
    },
  );
});

describe('Metrics with an outbox read that never answers', () => {
  it('answers each scrape within its bound, outbox gauges kept, and reads the outbox once while it hangs', async () => {
    const metrics = new Metrics(systemClock);
    let outboxReads = 0;
    let hang = false;
    metrics.watch({
      pending: () => 0,
      servers: () => [],
      redis: () => Promise.resolve(!hang),
      outbox: () => {
        outboxReads += 1;
        return hang ? new Promise(() => undefined) : Promise.resolve({ depth: 3, oldestAt: Date.now() });
      },
    });
    const depthOf = async () =>
      valueOf(parseSamples((await metrics.scrape()).body), 'elicit_relay_outbox_depth');
    expect(await depthOf()).toBe(3);
    hang = true;
    const started = Date.now();
    expect([await depthOf(), await depthOf()]).toEqual([3, 3]);
    // Two scrapes, each bounded at the Redis probe's 500 ms; generous for a loaded machine.
    expect(Date.now() - started).toBeLessThan(SCRAPE_TIMEOUT_MS);
    expect(outboxReads).toBe(2);
  });
});
