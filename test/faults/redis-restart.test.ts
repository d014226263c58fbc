// T11, T12: Redis itself dies. With AOF the replicas carry on after a restart with no process restart, and
// every question still ends exactly once. Restarted empty (no persistence, or a failover that lost data), the
// wipe is detected and logged, and each MCP request waiting on a question lost with the data gets cancel then
// (its local backstop would answer only at the deadline).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StoreLogger } from '../../src/store/index.js';
import { uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore } from '../store/helpers.js';
import { startHarness, type Harness } from '../system/harness.js';
import { Cluster } from './support/cluster.js';
import { startPrivateRedis, type PrivateRedis } from './support/redis-server.js';

/** T11's bound: workers and inboxes resume on their own within 30 s of Redis coming back. */
/** T12's bound: the lease renews every 5 s, so a wipe is found within one renewal after the reconnect. */
const WIPE_FOUND_BOUND_MS = 20_000;
const RESUME_BOUND_MS = 30_000;

let redis: PrivateRedis | undefined;
let cluster: Cluster | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await cluster?.close();
  await harness?.close();
  await redis?.stop();
  [cluster, harness, redis] = [undefined, undefined, undefined];
});

describe('Redis SIGKILLed and restarted', () => {
  it('T11: with AOF, answers and timeouts around the restart each end their question exactly once', async () => {
    redis = await startPrivateRedis({ aof: true });
    const c = (cluster = await Cluster.start({ redisUrl: redis.url, replicas: 3 }));
    await Promise.all(c.replicas.map((r) => r.call({ op: 'startInbox' })));
    await Promise.all(c.replicas.map((r) => r.call({ op: 'startTimeouts', hold: false })));
    const asked = await Promise.all(
      Array.from({ length: 90 }, (_, i) => c.ask(c.replica(i % 3), newQuestion({ timeoutMs: 4_000 }))),
    );
    const [before, after] = [asked.slice(0, 30), asked.slice(30, 60)];
    for (const q of before) await c.answer(c.replica(1), q.id, { action: 'decline' }, 'declined');

    await redis.kill('SIGKILL');
    await redis.restart();
    // The command connection fails fast while it reconnects; each answer is retried until Redis takes it.
    for (const q of after) {
      await vi.waitFor(() => c.answer(c.replica(2), q.id, { action: 'decline' }, 'declined'), {
        timeout: RESUME_BOUND_MS,
        interval: 100,
      });
    }
    // The last 30 are left to their timeouts, fired by the same worker objects after the restart.
    await c.allResponded();
    expect(await c.check(RESUME_BOUND_MS)).toEqual([]);
  });

  it('T12: restarted empty, the wipe is detected and logged by the lease renewal', async () => {
    redis = await startPrivateRedis({ aof: false });
    let onWipe: (obj: object) => void = () => undefined;
    const wiped = new Promise<object>((resolve) => (onWipe = resolve));
    const logger: StoreLogger = {
      warn: (obj, msg) => (msg.startsWith('Redis lost its data') ? onWipe(obj) : undefined),
      info: () => undefined,
    };
    const store = await openStore(uniquePrefix(), 'holder-a', { url: redis.url, logger });
    await store.startLease({ ttlMs: 2_000, renewEveryMs: 100 });
    await store.create(newQuestion());
    await redis.restart({ wipe: true });
    expect(await wiped).toMatchObject({ holder: 'holder-a' });
  });

  it('T12: restarted empty, the MCP request waiting on a lost question still gets cancel after the deadline', async () => {
    redis = await startPrivateRedis({ aof: false });
    const h = (harness = await startHarness({ redisUrl: redis.url, timeout: '1s' }));
    await h.ask('U1', { type: 'object', properties: { ok: { type: 'boolean' } } });
    await redis.restart({ wipe: true });
    expect(await h.toolResult('U1')).toEqual({ action: 'cancel' });
  });

  it('T12: restarted empty, the MCP request waiting on a lost question gets cancel once the wipe is found, not at its deadline', async () => {
    redis = await startPrivateRedis({ aof: false });
    const h = (harness = await startHarness({ redisUrl: redis.url, timeout: '10m' }));
    await h.ask('U1', { type: 'object', properties: { ok: { type: 'boolean' } } });
    await redis.restart({ wipe: true });
    const waited = new Promise<'still waiting'>((resolve) =>
      setTimeout(() => resolve('still waiting'), WIPE_FOUND_BOUND_MS),
    );
    expect(await Promise.race([h.toolResult('U1'), waited])).toEqual({ action: 'cancel' });
  }, 60_000);
});
