// EndedEvents, the port long-polls and anything else that hangs off question ends use: every end the store's
// transition makes wakes the subscribers on every replica, a subscriber that leaves is forgotten, and a
// consumer group hands each end to exactly one replica.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { EndedEvents, streamIdBefore, type EndedEvent } from '../../src/api/ended.js';
import { RedisConnections, keys, type RedisClient } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore, recordingLogger } from '../store/helpers.js';
import { manualClock, type ManualClock } from '../support/answering.js';
import { deferred } from '../support/deferred.js';

const started: EndedEvents[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((events) => events.stop()));
});

async function replica(
  prefix: string,
  name: string,
  opened: (role: string, client: RedisClient) => void = () => undefined,
  clock?: ManualClock,
): Promise<EndedEvents> {
  const logger = recordingLogger();
  const connections = new RedisConnections({ url: redisUrl() }, logger);
  const events = new EndedEvents({
    connect: async (role) => {
      const client = await connections.blocking(keys(prefix).connectionName(role, name));
      opened(role, client);
      return client;
    },
    key: keys(prefix).ended,
    lease: (holder) => keys(prefix).lease(holder),
    consumer: name,
    logger,
    ...(clock ? { clock } : {}),
  });
  started.push(events);
  await events.start();
  return events;
}

describe('ended events', () => {
  it('wake a subscriber on another replica when a question ends, and forget one that cancels', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'replica-a');
    const [b, c] = [await replica(prefix, 'replica-b'), await replica(prefix, 'replica-c')];
    const question = await store.create(newQuestion({ client: 'ci', place: { dm: 'U123' } }));
    const other = await store.create(newQuestion());
    const onB = b.subscribe(question.id);
    const onC = c.subscribe(question.id);
    const left = c.subscribe(other.id);
    left.cancel();
    expect([b.waiting, c.waiting]).toEqual([1, 1]);
    await store.finish(question.id, { action: 'decline' }, 'declined', 'U123');
    await Promise.all([onB.ended, onC.ended]);
    expect([b.waiting, c.waiting]).toEqual([0, 0]);
  });

  it('hand each end to exactly one consumer of a group across replicas', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'replica-a');
    const seen: { by: string; event: EndedEvent }[] = [];
    const { promise: three, resolve: all } = deferred();
    for (const name of ['replica-b', 'replica-c']) {
      const events = await replica(prefix, name);
      await events.consume('webhooks', (event) => {
        seen.push({ by: name, event });
        if (seen.length === 3) all();
        return Promise.resolve();
      });
    }
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const q = await store.create(newQuestion());
      ids.push(q.id);
      await store.finish(q.id, { action: 'cancel' }, 'withdrawn');
    }
    await three;
    expect(seen.map((s) => s.event.id).sort()).toEqual([...ids].sort());
    expect(seen.every((s) => s.event.state === 'cancelled')).toBe(true);
  });

  it('acknowledge the entries of one read with one XACK, once each was handled', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'replica-a');
    const xacks: string[][] = [];
    const events = await replica(prefix, 'replica-b', (role, client) => {
      if (role !== 'ended-webhooks') return;
      const xack = client.xack.bind(client);
      vi.spyOn(client, 'xack').mockImplementation((key, group, ...ids) => {
        xacks.push(ids.map(String));
        return xack(key, group, ...ids);
      });
    });
    const { promise: held, resolve: release } = deferred();
    const { promise: firstSeen, resolve: first } = deferred();
    const seen: string[] = [];
    const { promise: allSeen, resolve: five } = deferred();
    await events.consume('webhooks', async (event) => {
      seen.push(event.id);
      if (seen.length === 1) {
        first();
        await held;
      }
      if (seen.length === 5) five();
    });
    const ids: string[] = [];
    const end = async (): Promise<void> => {
      const q = await store.create(newQuestion());
      ids.push(q.id);
      await store.finish(q.id, { action: 'cancel' }, 'withdrawn');
    };
    await end();
    await firstSeen;
    // Four more end while the first one's handler runs: the next read takes them together.
    for (let i = 0; i < 4; i++) await end();
    release();
    await allSeen;
    await vi.waitFor(() => expect(xacks.flat()).toHaveLength(5));
    expect(seen).toEqual(ids);
    expect(xacks.map((batch) => batch.length)).toEqual([1, 4]);
  });

  it('leave an entry whose handler threw, and the rest of its read, pending', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'replica-a');
    let reader: RedisClient | undefined;
    const events = await replica(prefix, 'replica-b', (role, client) => {
      if (role === 'ended-webhooks') reader = client;
    });
    const { promise: held, resolve: release } = deferred();
    const { promise: firstSeen, resolve: first } = deferred();
    const seen: string[] = [];
    const { promise: failed, resolve: threw } = deferred();
    await events.consume('webhooks', async (event) => {
      seen.push(event.id);
      if (seen.length === 1) {
        first();
        await held;
      }
      if (seen.length === 3) {
        threw();
        throw new Error('handler failed');
      }
    });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      if (i === 1) await firstSeen;
      const q = await store.create(newQuestion());
      ids.push(q.id);
      await store.finish(q.id, { action: 'cancel' }, 'withdrawn');
    }
    release();
    await failed;
    const key = keys(prefix).ended;
    // Handled: the first read's entry and the second read's first; pending: the one that threw and the last.
    await vi.waitFor(async () => {
      const pending = (await reader?.xpending(key, 'webhooks')) as [number, ...unknown[]];
      expect(pending[0]).toBe(2);
    });
    expect(seen).toEqual(ids.slice(0, 3));
  });

  it('read the ends that came while a group waited after a read together, and ack them together', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'replica-a');
    const clock = manualClock();
    const xacks: string[][] = [];
    const events = await replica(
      prefix,
      'replica-b',
      (role, client) => {
        if (role !== 'ended-webhooks') return;
        const xack = client.xack.bind(client);
        vi.spyOn(client, 'xack').mockImplementation((key, group, ...ids) => {
          xacks.push(ids.map(String));
          return xack(key, group, ...ids);
        });
      },
      clock,
    );
    const seen: string[] = [];
    await events.consume('webhooks', (event) => Promise.resolve(void seen.push(event.id)));
    const end = async (): Promise<string> => {
      const q = await store.create(newQuestion());
      await store.finish(q.id, { action: 'cancel' }, 'withdrawn');
      return q.id;
    };
    const ids = [await end()];
    await vi.waitFor(() => expect(xacks).toHaveLength(1));
    // The group now waits GROUP_GATHER_MS on the clock: these four end meanwhile and are read at once after it.
    for (let i = 0; i < 4; i++) ids.push(await end());
    await vi.waitFor(() => {
      clock.fire();
      expect(seen).toHaveLength(5);
    });
    expect(seen).toEqual(ids);
    expect(xacks.map((batch) => batch.length)).toEqual([1, 4]);
  });

  it('wake a subscriber at once while the reader waits between reads with nobody subscribed', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'replica-a');
    const clock = manualClock();
    const events = await replica(prefix, 'replica-b', undefined, clock);
    const first = await store.create(newQuestion());
    const second = await store.create(newQuestion());
    const onFirst = events.subscribe(first.id);
    await store.finish(first.id, { action: 'cancel' }, 'withdrawn');
    await onFirst.ended;
    // Nobody waits now: the reader waits READER_GATHER_MS on the clock, which never fires here. A subscribe ends
    // that wait, so the next end still wakes its subscriber at once.
    const onSecond = events.subscribe(second.id);
    await store.finish(second.id, { action: 'cancel' }, 'withdrawn');
    await onSecond.ended;
  });

  it('wake a subscriber for an end whose id fell below the ones read, after the stream went back (a failover)', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'replica-a');
    const events = await replica(prefix, 'replica-b');
    const key = keys(prefix).ended;
    const redis = new Redis(redisUrl());
    try {
      // The old master, its clock a minute ahead, wrote an end the reader read; the promoted replica lacks it.
      const [sec = '0'] = await redis.time();
      const ahead = events.subscribe('ended-on-the-old-master');
      await redis.xadd(
        key,
        `${(Number(sec) + 60) * 1000}-0`,
        'id',
        'ended-on-the-old-master',
        'state',
        'cancelled',
      );
      await ahead.ended;
      await redis.del(key);
      const question = await store.create(newQuestion());
      const woken = events.subscribe(question.id);
      await store.finish(question.id, { action: 'decline' }, 'declined');
      await woken.ended;
    } finally {
      redis.disconnect();
    }
  });
});

describe('stream ids', () => {
  it('order by time, then by sequence, as numbers', () => {
    expect(streamIdBefore('1700000000000-5', '1700000000001-0')).toBe(true);
    expect(streamIdBefore('1700000000001-0', '1700000000000-5')).toBe(false);
    expect(streamIdBefore('99-9', '100-0')).toBe(true);
    expect(streamIdBefore('5-2', '5-10')).toBe(true);
    expect(streamIdBefore('5-10', '5-10')).toBe(false);
    expect(streamIdBefore('0-0', '0-0')).toBe(false);
  });
});
