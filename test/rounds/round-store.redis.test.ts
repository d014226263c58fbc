import { afterAll, afterEach } from 'vitest';
import { RedisConnections, endClient, keys, type RedisClient } from '../../src/redis/index.js';
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
