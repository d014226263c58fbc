import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RedisConnections, StoreError, endClient, keys, type RedisClient } from '../../src/redis/index.js';
import { RedisRoundStore } from '../../src/rounds/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { roundStoreContract } from './round-store.contract.js';

const clients: RedisClient[] = [];
const prefixes: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => endClient(client, true)));
});
afterAll(async () => {
  await Promise.all(prefixes.map((prefix) => deleteUnder(prefix)));
});

roundStoreContract('RedisRoundStore', async (replicas) => {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const connections = new RedisConnections({ url: redisUrl() }, recordingLogger());
  const k = keys(prefix);
  const redis = await Promise.all(
    Array.from({ length: replicas }, async (_, i) => {
      const client = await connections.command(k.connectionName('rounds', `replica-${i}`));
      clients.push(client);
      return client;
    }),
  );
  const stores = redis.map((client) => new RedisRoundStore({ redis: client, keys: k }));
  // A holder's lease as the question store keeps it (SET PX, renewed): present while it lives.
  const live = async (holder: string, alive: boolean): Promise<void> => {
    if (alive) await redis[0]!.set(k.lease(holder), holder, 'PX', 60_000);
    else await redis[0]!.del(k.lease(holder));
  };
  return { stores, live };
});

describe('RedisRoundStore: requestState as stored across a rolling deploy', () => {
  async function opened() {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const k = keys(prefix);
    const connections = new RedisConnections({ url: redisUrl() }, recordingLogger());
    const redis = await connections.command(k.connectionName('rounds', 'deploy'));
    clients.push(redis);
    const store = new RedisRoundStore({ redis, keys: k });
    const round = (requestState: string) =>
      store.open({
        server: 'mrtr',
        tool: 't',
        args: {},
        origin: { userId: 'U1' },
        requestState,
        requests: [{ key: 'ok', request: {} }],
        round: 1,
        deadline: Date.now() + 60_000,
      });
    return { store, redis, k, round };
  }

  it('reads a record written before requestStateJson existed as it was stored', async () => {
    const { store, redis, k, round } = await opened();
    const { id } = await round('placeholder');
    // As the earlier code wrote every state: the string alone, in UTF-8 (a lone surrogate already lost).
    await redis.hset(k.round(id), 'requestState', 'v1.\ufffd.中文😀\u0000');
    expect((await store.get(id))?.requestState).toBe('v1.\ufffd.中文😀\u0000');
  });

  it('still writes requestState for replicas not yet updated, and only a state UTF-8 cannot carry twice', async () => {
    const { redis, k, round } = await opened();
    const plain = await round('中文😀 "quoted"');
    expect(await redis.hmget(k.round(plain.id), 'requestState', 'requestStateJson')).toEqual([
      '中文😀 "quoted"',
      null,
    ]);
    const lone = await round('v1.\udc80');
    expect(await redis.hmget(k.round(lone.id), 'requestState', 'requestStateJson')).toEqual([
      'v1.\ufffd',
      '"v1.\\udc80"',
    ]);
  });

  it('reads the state a replica not yet updated wrote when it moved the round on, not the earlier JSON form', async () => {
    const { store, redis, k, round } = await opened();
    const { id } = await round('v1.\udc80');
    // As the earlier NEXT script leaves the hash: the next round's state written, requestStateJson untouched.
    await redis.hset(k.round(id), 'requestState', 'v2.plain');
    expect((await store.get(id))?.requestState).toBe('v2.plain');
    await redis.hdel(k.round(id), 'requestState');
    expect(await store.get(id)).not.toHaveProperty('requestState');
  });

  it('refuses a requestStateJson that is not a JSON string as a bad record', async () => {
    const { store, redis, k, round } = await opened();
    const { id } = await round('s');
    await redis.hset(k.round(id), 'requestStateJson', '{"not":"a string"}');
    await expect(store.get(id)).rejects.toBeInstanceOf(StoreError);
  });
});
