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
  return Promise.all(
    Array.from({ length: replicas }, async (_, i) => {
      const redis = await connections.command(keys(prefix).connectionName('rounds', `replica-${i}`));
      clients.push(redis);
      return new RedisRoundStore({ redis, keys: keys(prefix) });
    }),
  );
});
