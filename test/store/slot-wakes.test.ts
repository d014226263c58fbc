// The store wakes the timeout queue's workers when a deadline slot's job is due (src/redis/queue-wakes.ts), so a
// timeout does not wait for Redis's next `hz` tick. No timeout worker runs here: the test pops the queue's marker
// itself, as an idle worker would, and tells the wake (member '0', score 0) from BullMQ's own delay marker
// (member '1', scored by the next delayed job's time).
import { QueueKeys } from 'bullmq';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { TIMEOUT_QUEUE, keys } from '../../src/redis/index.js';
import { uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore, rawRedis, redisTimeMs } from './helpers.js';

/** Pops `marker` (blocking) until a wake comes; Redis TIME when it came, or undefined after `withinMs`. */
async function nextWake(redis: Redis, marker: string, withinMs: number): Promise<number | undefined> {
  const end = Date.now() + withinMs;
  while (Date.now() < end) {
    const popped = await redis.bzpopmin(marker, Math.max(0.01, (end - Date.now()) / 1000));
    if (popped?.[1] === '0') return redisTimeMs(redis);
  }
  return undefined;
}

describe("the timeout queue's wakes", () => {
  it("wake a worker once a question's deadline slot job is due, never before the deadline", async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const marker = new QueueKeys(keys(prefix).bullPrefix).toKey(TIMEOUT_QUEUE, 'marker');
    const redis = rawRedis();
    const q = await store.create(newQuestion({ timeoutMs: 300 }));
    const wokenAt = await nextWake(redis, marker, 5_000);
    expect(wokenAt).toBeDefined();
    expect(wokenAt).toBeGreaterThanOrEqual(q.deadline);
  });
});
