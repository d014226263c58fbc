// Redis round stores for tests, each under a fresh prefix: its client is ended after each test and every key
// under its prefix deleted after the file. Call redisRoundStores() at a test file's top level (it registers the
// hooks), then the function it returns in a test.
import { afterAll, afterEach } from 'vitest';
import { RedisConnections, endClient, keys, type Keys, type RedisClient } from '../../src/redis/index.js';
import { RedisRoundStore } from '../../src/rounds/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { deleteUnder } from './redis-cleanup.js';

export interface RedisRounds {
  store: RedisRoundStore;
  redis: RedisClient;
  k: Keys;
  /** The ids in the open rounds index. */
  openRounds: () => Promise<string[]>;
  /** Every key written under the store's prefix. */
  written: () => Promise<string[]>;
}

/** A factory of round stores whose connections are named `rounds`/`name`. */
export function redisRoundStores(name: string): () => Promise<RedisRounds> {
  const clients: RedisClient[] = [];
  const prefixes: string[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => endClient(client, true)));
  });
  afterAll(async () => {
    await Promise.all(prefixes.map((prefix) => deleteUnder(prefix)));
  });
  return async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const connections = new RedisConnections({ url: redisUrl() }, recordingLogger());
    const k = keys(prefix);
    const redis = await connections.command(k.connectionName('rounds', name));
    clients.push(redis);
    return {
      store: new RedisRoundStore({ redis, keys: k }),
      redis,
      k,
      openRounds: () => redis.zrange(k.openRounds, '0', '-1'),
      written: () => redis.keys(`${prefix}*`),
    };
  };
}
