// The consumers crashed replicas leave in the ended stream's groups: a live replica's claim pass takes over
// what is pending on them, then removes each consumer whose replica is dead (no lease, idle past the claim
// threshold) and has nothing left pending. Real Redis under the test's own prefix; a crashed replica is played
// by reading as its consumer and never again, with no lease. The claim threshold is 0 ms here, so a consumer is
// idle long enough at once and only its lease and what is pending on it decide.
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { EndedEvents } from '../../src/api/ended.js';
import { RedisConnections, keys } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { openStore, recordingLogger } from '../store/helpers.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { until } from '../support/until.js';

const GROUP = 'webhooks';
const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

async function setUp(): Promise<{ prefix: string; key: string; redis: Redis }> {
  const prefix = uniquePrefix();
  opened.push(() => deleteUnder(prefix));
  const redis = new Redis(redisUrl());
  opened.push(async () => void (await redis.quit()));
  const key = keys(prefix).ended;
  await redis.xgroup('CREATE', key, GROUP, '$', 'MKSTREAM');
  return { prefix, key, redis };
}

/** A replica that read `ends` new ends as its consumer and crashed before acknowledging any; their ids. */
async function crashedWithPending(redis: Redis, key: string, name: string, ends: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < ends; i++) {
    const id = `${name}-q${i}`;
    await redis.xadd(key, '*', 'id', id, 'state', 'cancelled');
    ids.push(id);
  }
  await redis.xreadgroup('GROUP', GROUP, name, 'COUNT', ends, 'STREAMS', key, '>');
  return ids;
}

/** A live replica (its lease held, as the store keeps it) consuming the group, claiming entries idle 0 ms. */
async function liveReplica(prefix: string, name: string, handler: (id: string) => Promise<void>) {
  const store = await openStore(prefix, name);
  await store.startLease();
  const logger = recordingLogger();
  const connections = new RedisConnections({ url: redisUrl() }, logger);
  const events = new EndedEvents({
    connect: (role) => connections.blocking(keys(prefix).connectionName(role, name)),
    key: keys(prefix).ended,
    consumer: name,
    lease: (holder) => keys(prefix).lease(holder),
    claimIdleMs: 0,
    logger,
  });
  opened.push(() => events.stop());
  await events.start();
  await events.consume(GROUP, (event) => handler(event.id));
}

async function consumers(redis: Redis, key: string): Promise<string[]> {
  const listed = (await redis.xinfo('CONSUMERS', key, GROUP)) as unknown[][];
  return listed.map((fields) => String(fields[fields.indexOf('name') + 1])).sort();
}

describe('the consumers crashed replicas leave in an ended stream group', () => {
  it('are removed once the ends pending on them were claimed and handled by a live replica', async () => {
    const { prefix, key, redis } = await setUp();
    const ids = await crashedWithPending(redis, key, 'replica-crashed', 3);
    const handled: string[] = [];
    await liveReplica(prefix, 'replica-b', (id) => Promise.resolve(void handled.push(id)));

    await until('the crashed replica’s consumer is removed', 10_000, async () => {
      return (await consumers(redis, key)).join() === 'replica-b';
    });
    expect(handled.sort()).toEqual(ids.sort());
    expect((await redis.xpending(key, GROUP))[0]).toBe(0);
  });

  it('are kept while ends a claim has not taken yet are pending on them, and removed once taken', async () => {
    const { prefix, key, redis } = await setUp();
    // More than one claim takes (100 entries): the first pass leaves 50 pending on the crashed consumer.
    const ids = await crashedWithPending(redis, key, 'replica-crashed', 150);
    const handled: string[] = [];
    let listedAtSecondClaim: string[] = [];
    await liveReplica(prefix, 'replica-b', async (id) => {
      handled.push(id);
      // The first end of the second claim: the first pass, with its removal, is over.
      if (handled.length === 101) listedAtSecondClaim = await consumers(redis, key);
    });

    await until('every end handled and the crashed consumer removed', 20_000, async () => {
      return handled.length === 150 && (await consumers(redis, key)).join() === 'replica-b';
    });
    expect(listedAtSecondClaim).toEqual(['replica-b', 'replica-crashed']);
    expect(new Set(handled)).toEqual(new Set(ids));
  });

  it('keep a live replica’s consumer with nothing pending, while a crashed one’s is removed', async () => {
    const { prefix, key, redis } = await setUp();
    await redis.xgroup('CREATECONSUMER', key, GROUP, 'replica-crashed');
    const other = await openStore(prefix, 'replica-c');
    await other.startLease();
    await redis.xgroup('CREATECONSUMER', key, GROUP, 'replica-c');
    await liveReplica(prefix, 'replica-b', () => Promise.resolve());

    await until('the crashed replica’s consumer is removed', 10_000, async () => {
      return !(await consumers(redis, key)).includes('replica-crashed');
    });
    // replica-b's own consumer is listed from its first read or claim that finds something: not the point here.
    const others = (await consumers(redis, key)).filter((name) => name !== 'replica-b');
    expect(others).toEqual(['replica-c']);
  });

  it('say nothing of a removal pass the replica’s own stop cuts short (its connection closed under it)', async () => {
    const { prefix, key, redis } = await setUp();
    await redis.xgroup('CREATECONSUMER', key, GROUP, 'replica-crashed');
    const store = await openStore(prefix, 'replica-b');
    await store.startLease();
    const logger = recordingLogger();
    const connections = new RedisConnections({ url: redisUrl() }, logger);
    // Settles once the stop that the pass met is over.
    let stopDuringPass: (stop: Promise<void>) => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stopDuringPass = resolve));
    let stopping = false;
    const events: EndedEvents = new EndedEvents({
      connect: (role) => connections.blocking(keys(prefix).connectionName(role, 'replica-b')),
      key,
      consumer: 'replica-b',
      // Read between the pass's XINFO and its MGET of the leases: the stop starts there, as a start-up that
      // fails (or a SIGTERM) stops the parts while a claim pass is out.
      lease: (holder) => {
        if (!stopping) stopDuringPass(events.stop());
        stopping = true;
        return keys(prefix).lease(holder);
      },
      claimIdleMs: 0,
      logger,
    });
    await events.consume(GROUP, () => Promise.resolve());
    await stopped;

    expect(logger.logged.filter((line) => line.level === 'warn').map((line) => line.msg)).toEqual([]);
    expect(await consumers(redis, key)).toContain('replica-crashed');
  });
});
