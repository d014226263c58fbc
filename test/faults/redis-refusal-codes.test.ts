// Redis's refusals told apart by the reply's code, on Redis 6 and 7. A command Redis refused before running it
// wrote nothing: out of memory (OOM) is 'redis_out_of_memory'; a passing state of the topology (READONLY,
// CLUSTERDOWN, TRYAGAIN, MASTERDOWN, LOADING) is 'redis_try_again', which the relay's Redis-backed steps try again
// as they do an outage. Redis 6 wraps the error a script met in an ERR reply (src/scripting.c of 6.2:
// evalGenericCommand replies "Error running script (call to %s): %s" around the error handler's `source:line: `
// and luaPushError's `%s: %d: %s`, the error reply keeping its '-'); there is no Redis 6 here, so its replies are
// the exact strings it sends, as quoted from deployments (outline/outline#1538: OOM, spring-data-redis#3042:
// READONLY), sent as error replies by a real server (redis.error_reply); Redis 7's are made for real by a private
// redis-server.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandError } from '../../src/redis/index.js';
import { relayErrorCode } from '../../src/relay/errors.js';
import { againWhileUnavailable } from '../../src/relay/while-unavailable.js';
import { startPrivateRedis, type PrivateRedis } from './support/redis-server.js';

const SHA = '0a9a51ee96320953ec7bde8e63f3f060b9dac00c';
/** Redis 6's reply to EVALSHA whose script's first write met maxmemory (three trailing spaces: its \r\n and \n). */
const REDIS6_OOM = `ERR Error running script (call to f_${SHA}): @user_script:41: @user_script: 41: -OOM command not allowed when used memory > 'maxmemory'.   `;
/** Redis 6's reply to EVALSHA whose script wrote on a read-only replica. */
const REDIS6_READONLY = `ERR Error running script (call to f_${SHA}): @user_script:4: @user_script: 4: -READONLY You can't write against a read only replica.   `;
/** Redis 6's reply to a script's own Lua error: no Redis code inside, so a plain error reply. */
const REDIS6_LUA_ERROR = `ERR Error running script (call to f_${SHA}): @user_script:1: user_script:1: Script attempted to access nonexistent global variable 'x'`;
const SET_IN_SCRIPT = "return redis.call('SET', KEYS[1], 'x')";

/** Makes a real server send `reply` as its error reply, byte for byte, as Redis 6 sends it. */
const REPLY_WITH = 'return redis.error_reply(ARGV[1])';

/** What `promise` rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('did not fail');
    },
    (error: unknown) => error,
  );
}

describe("Redis's refusals told by their code", () => {
  let redis: PrivateRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await startPrivateRedis({ aof: false });
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client.disconnect();
    await redis.stop();
  });

  it("tells Redis 6's refusals inside a script by the code it wrapped, not as a plain error reply", async () => {
    const codeOf = async (reply: string): Promise<unknown> =>
      relayErrorCode(commandError('finish', await rejection(client.eval(REPLY_WITH, 0, reply))));
    expect(await codeOf(REDIS6_OOM)).toBe('redis_out_of_memory');
    expect(await codeOf(REDIS6_READONLY)).toBe('redis_try_again');
    expect(await codeOf(REDIS6_LUA_ERROR)).toBe('redis_error');
  });

  it('a Redis 7 script refused at its first write for memory is redis_out_of_memory, writing nothing', async () => {
    await client.config('SET', 'maxmemory', '1');
    try {
      const refused = await rejection(client.eval(SET_IN_SCRIPT, 1, 'oom-key'));
      expect(commandError('finish', refused)).toMatchObject({ code: 'redis_out_of_memory' });
    } finally {
      await client.config('SET', 'maxmemory', '0');
    }
    expect(await client.exists('oom-key')).toBe(0);
  });

  it('a Redis 7 script on a replica (READONLY) is redis_try_again, and tried again until it is served', async () => {
    const other = await startPrivateRedis({ aof: false });
    try {
      await client.replicaof('127.0.0.1', other.port);
      const refused = await rejection(client.eval(SET_IN_SCRIPT, 1, 'ro-key'));
      expect(commandError('finish', refused)).toMatchObject({ code: 'redis_try_again' });
      // The relay's steps that must not be lost try it again, as while Redis is unavailable: the failover back.
      let tries = 0;
      const clock = { now: () => 0, schedule: (fn: () => void) => (setImmediate(fn), () => undefined) };
      const done = await againWhileUnavailable(
        async () => {
          tries += 1;
          if (tries === 2) await client.replicaof('NO', 'ONE');
          return client.eval(SET_IN_SCRIPT, 1, 'ro-key').catch((error: unknown) => {
            throw commandError('finish', error);
          });
        },
        { clock, until: Infinity },
      );
      expect({ done, tries }).toEqual({ done: 'OK', tries: 2 });
    } finally {
      await client.replicaof('NO', 'ONE');
      await other.stop();
    }
  });
});
