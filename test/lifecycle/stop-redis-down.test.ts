// A replica stopped while its Redis is down (killed, not back yet) stops instead of waiting for Redis: ioredis
// leaves the commands of a connection between reconnect attempts waiting for a reconnect that disconnect()
// cancels, and the stop awaited them (the ended-events loop's blocked read, BullMQ's QUIT on its blocking
// connections). What was durable stays in Redis for a survivor: the question asked is still pending once Redis
// is back.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Records } from '../faults/support/records.js';
import { startPrivateRedis, type PrivateRedis } from '../faults/support/redis-server.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startHarness } from '../system/harness.js';

const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
};

let redis: PrivateRedis;
beforeAll(async () => {
  redis = await startPrivateRedis({ aof: true });
  // Every write on disk before the kill: the question must survive it for the check after the restart.
  const admin = new Redis(redis.url);
  await admin.config('SET', 'appendfsync', 'always');
  admin.disconnect();
});
afterAll(() => redis.stop());

// 60 s per test: the harness may take up to 30 s for a first card under CI's load (harness.ts), and the stop
// gives the card post in flight its 10 s (CARD_POSTS_WITHIN_MS), as answer-outage's tests are given.
describe('stopping while Redis is down', () => {
  it('stops with Redis killed and not back, and leaves the pending question in Redis for a survivor', async () => {
    const h = await startHarness({ redisUrl: redis.url });
    const card = await h.ask('U1', SCHEMA);
    const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    await redis.kill('SIGKILL');
    // The replica has seen the outage: its connections are reconnecting when the stop begins.
    await vi.waitFor(
      async () => expect((await fetch(`http://127.0.0.1:${h.relay.port}/readyz`)).status).toBe(503),
      { timeout: 10_000, interval: 100 },
    );

    await h.close();

    await redis.restart();
    const records = new Records(redis.url, h.prefix);
    try {
      expect((await records.question(id)).state).toBe('pending');
    } finally {
      records.close();
    }
  }, 60_000);
});
