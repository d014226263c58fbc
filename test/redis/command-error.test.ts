// commandError: only Redis's error replies and the connection's own failures become StoreErrors ('redis_error',
// 'redis_unavailable': "retry shortly" to an API client). A fault of this process met while sending a command (a
// record nested so deep that JSON.stringify overflows the stack) keeps its own identity, so it is answered as
// the bot's fault (500) instead of "unavailable" (503), which a client would retry for ever.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RelayError } from '../../src/relay/errors.js';
import { StoreError, commandError } from '../../src/redis/index.js';
import { redisUrl } from '../setup/context.js';

/** What a failed promise rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('did not fail');
}

/** JSON.stringify of 20,000 nested arrays: the RangeError a 40 KB request's metadata caused. */
function stackOverflow(): unknown {
  let deep: unknown = true;
  for (let i = 0; i < 20_000; i++) deep = [deep];
  try {
    return JSON.stringify({ metadata: deep });
  } catch (error) {
    return error;
  }
}

describe('commandError', () => {
  it("maps Redis's error replies to redis_error", async () => {
    const redis = new Redis(redisUrl());
    try {
      const reply = await rejection(redis.call('NO-SUCH-COMMAND'));
      expect(commandError('create', reply)).toMatchObject({ name: 'StoreError', code: 'redis_error' });
    } finally {
      redis.disconnect();
    }
  });

  it('maps a connection that is closed or cannot connect to redis_unavailable', async () => {
    const closed = new Redis(redisUrl(), { lazyConnect: true, enableOfflineQueue: false });
    const error = await rejection(closed.get('anything'));
    const wrapped = commandError('get', error);
    expect(wrapped).toBeInstanceOf(StoreError);
    expect(wrapped).toMatchObject({ code: 'redis_unavailable', cause: error });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(commandError('get', refused)).toMatchObject({ code: 'redis_unavailable' });
  });

  it('returns a fault of this process as it is, not as redis_unavailable', () => {
    const overflow = stackOverflow();
    expect(overflow).toBeInstanceOf(RangeError);
    expect(commandError('create', overflow)).toBe(overflow);
    const bug = new TypeError('cannot read properties of undefined');
    expect(commandError('create', bug)).toBe(bug);
  });

  it("returns the project's own typed errors with their code", () => {
    const store = new StoreError('draining', 'draining');
    expect(commandError('create', store)).toBe(store);
    const other = new RelayError('no_answerers', 'empty group');
    expect(commandError('create', other)).toBe(other);
  });
});
