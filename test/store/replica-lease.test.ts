// ELICIT_RELAY_REPLICA_LEASE reaches the lease a replica takes, as the composition root opens the store
// (persistence's openState): on real Redis the lease key of a replica started with 5 s never holds longer than
// 5 s. The periods that follow from it (renewal, and the sweeps for a lapsed lease: questions, rounds, API calls)
// are a third of it, at most 5 s; the default's are today's constants.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Lifecycle } from '../../src/lifecycle.js';
import { createLogger } from '../../src/logger.js';
import { openState } from '../../src/persistence.js';
import { keys } from '../../src/redis/index.js';
import { LEASE_RENEW_EVERY_MS, LEASE_TTL_MS, SWEEP_EVERY_MS, replicaTimings } from '../../src/store/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { loadSlackConfig } from '../support/config.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const prefix = uniquePrefix();

/** The lease key's time to live, in ms, right after a replica with `env` opened its store. */
async function leaseLeftMs(env: Record<string, string>, holderId: string): Promise<number> {
  const config = loadSlackConfig({
    env: {
      SLACK_BOT_TOKEN: 'xoxb-lease',
      SLACK_SIGNING_SECRET: 'signing-secret',
      REDIS_URL: redisUrl(),
      REDIS_PREFIX: prefix,
      ...env,
    },
    readFile: () => undefined,
  });
  const parts = new Lifecycle();
  const redis = new Redis(redisUrl());
  try {
    await openState(config, { holderId, logger: createLogger('silent') }, parts);
    return await redis.pttl(keys(prefix).lease(holderId));
  } finally {
    redis.disconnect();
    await parts.stop();
  }
}

describe('the replica lease setting', () => {
  afterAll(() => deleteUnder(prefix));

  it('keeps today’s timings by default: a 15 s lease, renewed and swept for every 5 s', () => {
    const today = { ttlMs: LEASE_TTL_MS, renewEveryMs: LEASE_RENEW_EVERY_MS };
    expect(replicaTimings()).toEqual({ lease: today, sweepEveryMs: SWEEP_EVERY_MS });
    expect(replicaTimings(15_000)).toEqual({
      lease: { ttlMs: 15_000, renewEveryMs: 5_000 },
      sweepEveryMs: 5_000,
    });
  });

  it('renews and sweeps every third of a shorter lease, and sweeps at most every 5 s for a longer one', () => {
    expect(replicaTimings(5_000)).toEqual({
      lease: { ttlMs: 5_000, renewEveryMs: 1_667 },
      sweepEveryMs: 1_667,
    });
    expect(replicaTimings(3_000)).toEqual({
      lease: { ttlMs: 3_000, renewEveryMs: 1_000 },
      sweepEveryMs: 1_000,
    });
    expect(replicaTimings(120_000)).toEqual({
      lease: { ttlMs: 120_000, renewEveryMs: 40_000 },
      sweepEveryMs: 5_000,
    });
  });

  it('gives a replica started with ELICIT_RELAY_REPLICA_LEASE=5s a lease that lapses within 5 s', async () => {
    const left = await leaseLeftMs({ ELICIT_RELAY_REPLICA_LEASE: '5s' }, 'lease-5s');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(5_000);
  });

  it('gives a replica started without it the default lease, within 15 s', async () => {
    const left = await leaseLeftMs({}, 'lease-default');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(LEASE_TTL_MS);
  });
});
