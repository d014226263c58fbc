// The PostgreSQL feed across replicas: entries a replica appended and never stored (it died between the append
// and the INSERT) are taken over by another replica's look for idle entries. Real Redis under the test's own
// prefix, real PostgreSQL in a database of the run's own; the feed's timers run on a stepped clock.
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuditStreamGroup,
  CLAIM_EVERY_MS,
  PostgresAuditLog,
  PostgresFeed,
  RedisAuditLog,
  type AuditEvent,
  type AuditFeed,
} from '../../src/audit/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { keys } from '../../src/redis/index.js';
import { openStore, recordingLogger } from '../store/helpers.js';
import { createTestDatabase } from '../support/postgres.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { steppedClock } from '../support/stepped-clock.js';
import { until } from '../support/until.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

const event = (question: string, at = Date.now()): AuditEvent => ({
  type: 'question.created',
  at: new Date(at).toISOString(),
  question,
});

/** A replica that appends, each batch delivered to its consumer, and dies before storing any (take does nothing). */
async function replicaThatDies(prefix: string, now: () => number, retentionMs?: number) {
  const dying: AuditFeed = { group: 'postgres', consumer: 'replica-dead', take: () => Promise.resolve() };
  const log = await RedisAuditLog.open({
    url: redisUrl(),
    prefix,
    logger: recordingLogger(),
    clock: { now },
    feed: dying,
    ...(retentionMs === undefined ? {} : { retentionMs }),
  });
  opened.push(() => log.close());
  return log;
}

/** A live replica's feed into the run's database, its timers on a stepped clock, claiming entries idle 0 ms. */
async function liveFeed(prefix: string) {
  const db = await createTestDatabase();
  opened.push(() => db.drop());
  const postgres = await PostgresAuditLog.open(db.url);
  opened.push(() => postgres.close());
  const errors: object[] = [];
  const logger = { ...recordingLogger(), error: (obj: object) => void errors.push(obj) };
  const group = await AuditStreamGroup.open({ url: redisUrl(), prefix, logger, consumer: 'replica-live' });
  const clock = steppedClock();
  const feed = new PostgresFeed({ postgres, group, logger, clock, claimIdleMs: 0 });
  opened.push(() => feed.close());
  return { postgres, clock, errors };
}

/** The audit stream's key and a plain client to look at its group with. */
function lookAt(prefix: string): { key: string; redis: Redis } {
  const redis = new Redis(redisUrl());
  opened.push(() => Promise.resolve(redis.disconnect()));
  return { key: keys(prefix).auditEvents, redis };
}

async function consumers(redis: Redis, key: string): Promise<Record<string, number>> {
  const listed = (await redis.xinfo('CONSUMERS', key, 'postgres')) as unknown[][];
  const field = (fields: unknown[], name: string): unknown => fields[fields.indexOf(name) + 1];
  return Object.fromEntries(listed.map((f) => [String(field(f, 'name')), Number(field(f, 'pending'))]));
}

/** Appends `count` events, each pending on the dying replica's consumer. */
async function appendAll(log: RedisAuditLog, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, (_, i) => log.append(event(`q${i}`))));
}

describe('the PostgreSQL feed', () => {
  it('stores, by another replica, the events a replica appended and died before storing', async () => {
    const prefix = uniquePrefix();
    opened.push(() => deleteUnder(prefix));
    const dead = await replicaThatDies(prefix, () => Date.now());
    await dead.append(event('q1'));
    await Promise.all([dead.append(event('q2')), dead.append(event('q3'))]);
    const { postgres, clock } = await liveFeed(prefix);
    expect((await postgres.list({})).events).toEqual([]);
    await clock.advance(CLAIM_EVERY_MS);
    await until('the dead replica’s events are in PostgreSQL', 5_000, async () => {
      return (await postgres.list({})).events.length === 3;
    });
    expect((await postgres.list({})).events.map((e) => e.question)).toEqual(['q1', 'q2', 'q3']);
    // Acknowledged once stored: nothing is pending any more.
    const redis = new Redis(redisUrl());
    opened.push(() => Promise.resolve(redis.disconnect()));
    expect((await redis.xpending(`${prefix}:audit:events`, 'postgres'))[0]).toBe(0);
  });

  it('reports the events trimmed (older than the retention) before any replica stored them', async () => {
    const prefix = uniquePrefix();
    opened.push(() => deleteUnder(prefix));
    let now = Date.now();
    const dead = await replicaThatDies(prefix, () => now, 60_000);
    await dead.append(event('trimmed', now));
    now += 61_000;
    await dead.append(event('kept', now));
    const { postgres, clock, errors } = await liveFeed(prefix);
    await clock.advance(CLAIM_EVERY_MS);
    await until('the kept event is in PostgreSQL', 5_000, async () => {
      return (await postgres.list({})).events.length === 1;
    });
    expect((await postgres.list({})).events.map((e) => e.question)).toEqual(['kept']);
    expect(errors).toEqual([{ ids: [expect.any(String)] }]);
  });
});

describe('the consumers dead replicas leave in the postgres group', () => {
  it('are removed once the events pending on them were claimed and stored', async () => {
    const prefix = uniquePrefix();
    opened.push(() => deleteUnder(prefix));
    const dead = await replicaThatDies(prefix, () => Date.now());
    await appendAll(dead, 3);
    const { key, redis } = lookAt(prefix);
    expect(await consumers(redis, key)).toEqual({ 'replica-dead': 3 });
    const { postgres, clock } = await liveFeed(prefix);
    await clock.advance(CLAIM_EVERY_MS);
    await until('the dead replica’s consumer is removed', 5_000, async () => {
      return !('replica-dead' in (await consumers(redis, key)));
    });
    expect((await postgres.list({})).events).toHaveLength(3);
    expect(await consumers(redis, key)).toEqual({ 'replica-live': 0 });
  });

  it('are kept while events a look has not claimed yet are pending on them, and removed once claimed', async () => {
    const prefix = uniquePrefix();
    opened.push(() => deleteUnder(prefix));
    const dead = await replicaThatDies(prefix, () => Date.now());
    // One look claims at most 1000 entries: the first leaves one pending on the dead replica's consumer.
    await appendAll(dead, 1001);
    const { key, redis } = lookAt(prefix);
    const { clock } = await liveFeed(prefix);
    await clock.advance(CLAIM_EVERY_MS);
    // The next look is scheduled once this one (its claims, stores and removals) is over.
    await until('the first look is over', 10_000, () => Promise.resolve(clock.pending() === 1));
    expect(await consumers(redis, key)).toEqual({ 'replica-dead': 1, 'replica-live': 0 });
    await clock.advance(CLAIM_EVERY_MS);
    await until('the dead replica’s consumer is removed', 10_000, async () => {
      return !('replica-dead' in (await consumers(redis, key)));
    });
    // Every event acknowledged, which the feed does once stored: none was dropped with the consumer.
    expect((await redis.xpending(key, 'postgres'))[0]).toBe(0);
  });

  it('keep a live replica’s consumer with nothing pending, while a dead one’s is removed', async () => {
    const prefix = uniquePrefix();
    opened.push(() => deleteUnder(prefix));
    const { key, redis } = lookAt(prefix);
    await redis.xgroup('CREATE', key, 'postgres', '$', 'MKSTREAM');
    await redis.xgroup('CREATECONSUMER', key, 'postgres', 'replica-dead');
    const other = await openStore(prefix, 'replica-other');
    await other.startLease();
    await redis.xgroup('CREATECONSUMER', key, 'postgres', 'replica-other');
    const { clock } = await liveFeed(prefix);
    await clock.advance(CLAIM_EVERY_MS);
    await until('the dead replica’s consumer is removed', 5_000, async () => {
      return !('replica-dead' in (await consumers(redis, key)));
    });
    expect(await consumers(redis, key)).toEqual({ 'replica-other': 0 });
  });
});
