import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { checkEvictionPolicy } from '../../src/redis/index.js';
import { recordingLogger } from './helpers.js';

/** Just enough of a client to answer CONFIG GET (the shared test Redis must not be reconfigured). */
function answering(reply: () => Promise<unknown>): Redis {
  return { call: reply } as unknown as Redis;
}

describe('maxmemory-policy check', () => {
  it('warns when Redis may evict keys', async () => {
    const logger = recordingLogger();
    await checkEvictionPolicy(
      answering(() => Promise.resolve(['maxmemory-policy', 'allkeys-lru'])),
      logger,
      false,
    );
    expect(logger.logged).toHaveLength(1);
    expect(logger.logged[0]).toMatchObject({ level: 'warn', obj: { policy: 'allkeys-lru' } });
    expect(logger.logged[0]?.msg).toMatch(/set it to "noeviction"/);
  });

  it('refuses with not_noeviction when told to', async () => {
    const check = checkEvictionPolicy(
      answering(() => Promise.resolve(['maxmemory-policy', 'volatile-lru'])),
      recordingLogger(),
      true,
    );
    await expect(check).rejects.toMatchObject({ name: 'StoreError', code: 'not_noeviction' });
  });

  it('stays quiet on noeviction and skips the check when CONFIG is not allowed', async () => {
    const logger = recordingLogger();
    await checkEvictionPolicy(
      answering(() => Promise.resolve(['maxmemory-policy', 'noeviction'])),
      logger,
      true,
    );
    await checkEvictionPolicy(
      answering(() => Promise.reject(new Error("ERR unknown command 'CONFIG'"))),
      logger,
      true,
    );
    expect(logger.logged.map((l) => l.level)).toEqual(['info']);
  });
});
