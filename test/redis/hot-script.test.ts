// A hot-path script (src/redis/hot-script.ts) on a Redis of its own: sent by EVALSHA, and by EVAL when that Redis
// does not have it (fresh, or its script cache flushed), so it runs exactly once either way.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HotScript } from '../../src/redis/index.js';
import { startPrivateRedis, type PrivateRedis } from '../faults/support/redis-server.js';

const COUNT = new HotScript("return redis.call('INCRBY', KEYS[1], ARGV[1])");

let server: PrivateRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startPrivateRedis({ aof: false });
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

/** Calls of `command` the server has answered so far (INFO commandstats). */
async function calls(command: string): Promise<number> {
  const stats = await redis.info('commandstats');
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
}

describe('a hot-path script', () => {
  it('runs once on a Redis that lacks it (EVAL after NOSCRIPT), then by EVALSHA alone', async () => {
    expect(await COUNT.run(redis, 1, ['counter', 2])).toBe(2);
    expect([await calls('evalsha'), await calls('eval')]).toEqual([1, 1]);
    expect(await COUNT.run(redis, 1, ['counter', 3])).toBe(5);
    expect([await calls('evalsha'), await calls('eval')]).toEqual([2, 1]);
  });

  it('runs once again after the script cache was flushed', async () => {
    await redis.script('FLUSH');
    expect(await COUNT.run(redis, 1, ['counter', 1])).toBe(6);
    expect(await redis.get('counter')).toBe('6');
  });

  it('passes on any other error as Redis gave it', async () => {
    await redis.set('text', 'not a number');
    await expect(COUNT.run(redis, 1, ['text', 1])).rejects.toThrow(/not an integer/);
    expect(await redis.get('text')).toBe('not a number');
  });
});
