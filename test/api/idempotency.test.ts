// Idempotency-Key reservations on real Redis. A first request that takes long to create (a user group's members
// looked up through Slack's 429s) renews its reservation, so a retry waits for it and returns what it made
// instead of creating a second; a reservation whose renewals stopped LAPSE_MS (10 s) ago (its replica died
// while creating) is taken over by a retry instead of every retry waiting until the key expires; and a first
// request whose reservation was taken over neither overwrites nor frees it. Clocks injected.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Idempotency, LAPSE_MS, RENEW_EVERY_MS, requestHash } from '../../src/api/idempotency.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deferred } from '../support/deferred.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { steppedClock, type SteppedClock } from '../support/stepped-clock.js';
import { until } from '../support/until.js';

const prefix = uniquePrefix();
const redis = new Redis(redisUrl());
afterAll(async () => {
  redis.disconnect();
  await deleteUnder(prefix);
});

const NOW = Date.parse('2026-12-04T21:00:00Z');
const keyOf = (client: string, key: string): string => `${prefix}:{q}:idem:${client}:${key}`;
const fixedClock = { now: () => NOW, schedule: () => () => undefined };
const idempotency = new Idempotency(redis, keyOf, fixedClock);
const hash = requestHash({ message: 'Deploy?' });
const stored = (key: string): string => keyOf('ci', createHash('sha256').update(key).digest('hex'));

/** A reservation as another request writes it before creating, last renewed `ageMs` before now. */
async function reservedAgo(key: string, ageMs: number, body = hash, now = NOW): Promise<void> {
  const value = { hash: body, owner: 'another-request', at: now - ageMs };
  await redis.set(stored(key), JSON.stringify(value), 'EX', 86_400);
}

const read = async (key: string): Promise<unknown> => JSON.parse((await redis.get(stored(key))) ?? 'null');

const neverCalled = (): Promise<string> => Promise.reject(new Error('created a second time'));

describe('an Idempotency-Key whose first request never finished', () => {
  it('is taken over by a retry once its reservation went unrenewed 10 s; later requests replay what the retry made', async () => {
    await reservedAgo('dead', LAPSE_MS);
    const created: string[] = [];
    const create = (): Promise<string> => Promise.resolve(`q${created.push('q')}`);
    expect(await idempotency.once('ci', 'dead', hash, create)).toEqual({ id: 'q1', replay: false });
    expect(await idempotency.once('ci', 'dead', hash, neverCalled)).toEqual({ id: 'q1', replay: true });
    expect(created).toHaveLength(1);
    expect(await redis.ttl(stored('dead'))).toBeGreaterThan(86_000);
  });

  it('is waited for while its reservation was renewed lately: the retry returns what the first request made', async () => {
    await reservedAgo('alive', LAPSE_MS - 1);
    const retry = idempotency.once('ci', 'alive', hash, neverCalled);
    await redis.set(stored('alive'), JSON.stringify({ hash, id: 'q-first' }), 'KEEPTTL');
    expect(await retry).toEqual({ id: 'q-first', replay: true });
  });

  it('still refuses another body with 409, however old the reservation', async () => {
    await reservedAgo('other', LAPSE_MS * 2, requestHash({ message: 'Something else' }));
    await expect(idempotency.once('ci', 'other', hash, neverCalled)).rejects.toMatchObject({
      code: 'idempotency_conflict',
    });
  });
});

describe('an Idempotency-Key whose first request takes longer than 10 s to create', () => {
  /**
   * Moves the clock on by `ms` in renewal steps, each renewal landed before the next step: the renewal's EVAL
   * goes out on this test's own connection as its timer runs, so a PING sent after it is answered after it
   * (and the next renewal is scheduled once the continuations the answers released have run).
   */
  async function creatingFor(clock: SteppedClock, ms: number): Promise<void> {
    for (let moved = 0; moved < ms; moved += RENEW_EVERY_MS) {
      await clock.advance(RENEW_EVERY_MS);
      await redis.ping();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('keeps its reservation renewed: a retry 12 s later waits and returns the first id, creating nothing', async () => {
    const clock = steppedClock();
    const slow = new Idempotency(redis, keyOf, clock);
    const creating = deferred<string>();
    const first = slow.once('ci', 'slow', hash, () => creating.promise);
    await until('the key reserved', 2_000, async () => (await redis.exists(stored('slow'))) === 1);
    await creatingFor(clock, 4 * RENEW_EVERY_MS);
    const retry = slow.once('ci', 'slow', hash, neverCalled);
    await new Promise((resolve) => setTimeout(resolve, 100));
    creating.resolve('q-slow');
    expect(await first).toEqual({ id: 'q-slow', replay: false });
    expect(await retry).toEqual({ id: 'q-slow', replay: true });
    expect(await read('slow')).toEqual({ hash, id: 'q-slow' });
    // Renewals end with the create: nothing is left scheduled.
    expect(clock.pending()).toBe(0);
  });

  it('writes its result only while the reservation is its own: one taken over after its renewals stalled stays', async () => {
    const clock = steppedClock();
    const slow = new Idempotency(redis, keyOf, clock);
    const creating = deferred<string>();
    const first = slow.once('ci', 'stalled', hash, () => creating.promise);
    await until('the key reserved', 2_000, async () => (await redis.exists(stored('stalled'))) === 1);
    await reservedAgo('stalled', 0, hash, clock.now());
    await clock.advance(RENEW_EVERY_MS);
    creating.resolve('q-stalled');
    expect(await first).toEqual({ id: 'q-stalled', replay: false });
    expect(await read('stalled')).toEqual({ hash, owner: 'another-request', at: 0 });
    expect(clock.pending()).toBe(0);
  });

  it('frees the key after a failed create only while the reservation is its own', async () => {
    const clock = steppedClock();
    const slow = new Idempotency(redis, keyOf, clock);
    const creating = deferred<string>();
    const first = slow.once('ci', 'failed', hash, () => creating.promise);
    await until('the key reserved', 2_000, async () => (await redis.exists(stored('failed'))) === 1);
    await reservedAgo('failed', 0, hash, clock.now());
    creating.reject(new Error('Slack said no'));
    await expect(first).rejects.toThrow('Slack said no');
    expect(await read('failed')).toEqual({ hash, owner: 'another-request', at: 0 });
  });

  it('frees the key after a failed create while it is still its own, so that a retry creates', async () => {
    const clock = steppedClock();
    const slow = new Idempotency(redis, keyOf, clock);
    const failing = (): Promise<string> => Promise.reject(new Error('Slack said no'));
    await expect(slow.once('ci', 'retry', hash, failing)).rejects.toThrow('Slack said no');
    expect(await redis.exists(stored('retry'))).toBe(0);
    const create = (): Promise<string> => Promise.resolve('q-retry');
    expect(await slow.once('ci', 'retry', hash, create)).toEqual({ id: 'q-retry', replay: false });
  });
});
