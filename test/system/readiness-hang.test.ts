// /readyz while Redis hangs (SIGSTOP: connections stay open, nothing answers): a load balancer's probe gets
// 503 and the reason promptly instead of waiting on the PING (commands time out only after 5 s).
import { afterEach, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../faults/support/redis-server.js';
import { startHarness, type Harness } from './harness.js';

/** A probe's own patience, as a load balancer's would be: a bound on the answer, not a speed check. */
const PROBE_TIMEOUT_MS = 3_000;

let redis: PrivateRedis | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  redis?.resume();
  await harness?.close();
  await redis?.stop();
  [harness, redis] = [undefined, undefined];
});

describe('/readyz with Redis hung', () => {
  it('answers 503 naming the Redis timeout while Redis is SIGSTOPped, and 200 once it runs again', async () => {
    redis = await startPrivateRedis({ aof: false });
    const h = (harness = await startHarness({ redisUrl: redis.url }));
    const readyz = async (): Promise<{ status: number; body: unknown }> => {
      const res = await fetch(`http://127.0.0.1:${h.relay.port}/readyz`, {
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      return { status: res.status, body: await res.json() };
    };
    expect(await readyz()).toMatchObject({ status: 200, body: { ok: true, redis: 'ok' } });

    redis.pause();
    expect(await readyz()).toMatchObject({
      status: 503,
      body: { ok: false, serving: true, redis: 'timeout' },
    });
    redis.resume();
    expect(await readyz()).toMatchObject({ status: 200, body: { ok: true, redis: 'ok' } });
  });
});
