// Idempotency-Key reservations on real Redis when the request that reserved a key never finishes (its replica
// died while creating): a retry with the key takes the reservation over once it is older than WAIT_FOR_FIRST_MS
// (10 s) instead of getting 409 until the key expires; a living reservation is still waited for. Clock injected.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Idempotency, WAIT_FOR_FIRST_MS, requestHash } from '../../src/api/idempotency.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const prefix = uniquePrefix();
const redis = new Redis(redisUrl());
afterAll(async () => {
  redis.disconnect();
  await deleteUnder(prefix);
});

const NOW = Date.parse('2026-12-04T21:00:00Z');
const keyOf = (client: string, key: string): string => `${prefix}:{q}:idem:${client}:${key}`;
const idempotency = new Idempotency(redis, keyOf, { now: () => NOW });
const hash = requestHash({ message: 'Deploy?' });
const stored = (key: string): string => keyOf('ci', createHash('sha256').update(key).digest('hex'));

/** A reservation as a request writes it before creating, made `ageMs` before now. */
async function reservedAgo(key: string, ageMs: number, body = hash): Promise<void> {
  await redis.set(stored(key), JSON.stringify({ hash: body, at: NOW - ageMs }), 'EX', 86_400);
}

const neverCalled = (): Promise<string> => Promise.reject(new Error('created a second time'));

describe('an Idempotency-Key whose first request never finished', () => {
  it('is taken over by a retry once its reservation is older than 10 s; later requests replay what the retry made', async () => {
    await reservedAgo('dead', WAIT_FOR_FIRST_MS);
    const created: string[] = [];
    const create = (): Promise<string> => Promise.resolve(`q${created.push('q')}`);
    expect(await idempotency.once('ci', 'dead', hash, create)).toEqual({ id: 'q1', replay: false });
    expect(await idempotency.once('ci', 'dead', hash, neverCalled)).toEqual({ id: 'q1', replay: true });
    expect(created).toHaveLength(1);
    expect(await redis.ttl(stored('dead'))).toBeGreaterThan(86_000);
  });

  it('is waited for while its reservation is younger: the retry returns what the first request made', async () => {
    await reservedAgo('alive', WAIT_FOR_FIRST_MS - 1);
    const retry = idempotency.once('ci', 'alive', hash, neverCalled);
    await redis.set(stored('alive'), JSON.stringify({ hash, id: 'q-first', at: NOW }), 'KEEPTTL');
    expect(await retry).toEqual({ id: 'q-first', replay: true });
  });

  it('still refuses another body with 409, however old the reservation', async () => {
    await reservedAgo('other', WAIT_FOR_FIRST_MS * 2, requestHash({ message: 'Something else' }));
    await expect(idempotency.once('ci', 'other', hash, neverCalled)).rejects.toMatchObject({
      code: 'idempotency_conflict',
    });
  });
});
