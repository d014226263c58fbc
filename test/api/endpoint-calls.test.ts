// Which question an ask_human call waits on, in real Redis, for a host's cancel that lands on another replica:
// found while its one call runs, forgotten when that call ends, and found for neither when two running calls
// share a name (hosts without a session id number their requests alike).
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisEndpointCalls } from '../../src/api/endpoint-calls.js';
import { callIdOf } from '../../src/mcp/host-calls.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const prefix = uniquePrefix();
const redis = new Redis(redisUrl());
afterAll(async () => {
  redis.disconnect();
  await deleteUnder(prefix);
});

const calls = new RedisEndpointCalls(redis, (client, id) => `${prefix}:{q}:mcp-call:${client}:${id}`);
const MINUTE_MS = 60_000;

describe('the question a host call waits on, for a cancel elsewhere', () => {
  it('is found while its call runs and forgotten once it ends', async () => {
    const call = callIdOf('session-a', 1);
    await calls.remember('ci', call, 'Q1', MINUTE_MS);
    expect(await calls.questionOf('ci', call)).toBe('Q1');
    expect(await calls.questionOf('other-client', call)).toBeUndefined();
    expect(await calls.questionOf('ci', callIdOf('session-b', 1))).toBeUndefined();
    await calls.forget('ci', call, 'Q1');
    expect(await calls.questionOf('ci', call)).toBeUndefined();
    await calls.remember('ci', call, 'Q2', MINUTE_MS);
    expect(await calls.questionOf('ci', call)).toBe('Q2');
  });

  it('is found for neither of two running calls with one name, and the first to end forgets nothing', async () => {
    const call = callIdOf(undefined, 7);
    await calls.remember('ci', call, 'Q3', MINUTE_MS);
    await calls.remember('ci', call, 'Q4', MINUTE_MS);
    expect(await calls.questionOf('ci', call)).toBeUndefined();
    await calls.forget('ci', call, 'Q3');
    expect(await calls.questionOf('ci', call)).toBeUndefined();
    await calls.remember('ci', call, 'Q5', MINUTE_MS);
    expect(await calls.questionOf('ci', call)).toBeUndefined();
  });
});
