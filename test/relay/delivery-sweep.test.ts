// A question whose card no live replica will attach is not left hanging: a sweep on any replica posts it again
// (the outbox key makes that the same post), or ends it as delivery_failed when it cannot be posted. Such are an
// API question whose creator died before its card was attached, and a durable 2026 round's question whose
// replica stopped or died with its post still queued. Either is played by storing the question and posting
// nothing.
import { describe, expect, it } from 'vitest';
import { startDeliverySweep, sweepUndelivered } from '../../src/relay/delivery-sweep.js';
import { systemClock } from '../../src/clock.js';
import { RelayError } from '../../src/relay/errors.js';
import { Relay, type Surface } from '../../src/relay/relay.js';
import type { Question } from '../../src/relay/types.js';
import { Redis } from 'ioredis';
import { keys } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deferred } from '../support/deferred.js';
import { newQuestion, openStore } from '../store/helpers.js';

function surface(fail: boolean): Surface & { posted: string[] } {
  const posted: string[] = [];
  return {
    posted,
    postQuestion: (question: Question) => {
      if (fail) return Promise.reject(new RelayError('slack_post_failed', 'channel_not_found'));
      posted.push(question.id);
      return Promise.resolve({ cards: [{ channel: 'D1', ts: `1.${posted.length}` }] });
    },
    updateCard: () => Promise.resolve(),
    remind: () => Promise.resolve(),
  };
}

async function setUp(fail: boolean) {
  const prefix = uniquePrefix();
  const store = await openStore(prefix, 'replica-b');
  const cards = surface(fail);
  const relay = new Relay({
    store,
    links: store.roundLinks(),
    surface: cards,
    checkSchema: () => undefined,
    checkUrl: () => undefined,
    clock: systemClock,
    logger: { error: () => undefined, warn: () => undefined },
  });
  const sweep = {
    undelivered: (graceMs: number) => store.undelivered(graceMs),
    redeliver: (question: Question) => relay.redeliver(question),
    clock: systemClock,
    logger: { warn: () => undefined },
  };
  const detached = { client: 'ci', place: { dm: 'U123' } as const };
  return { prefix, store, cards, sweep, detached };
}

describe('the sweep of undelivered questions', () => {
  it('posts and attaches the card of an API question nobody delivered, once, and leaves MCP questions alone', async () => {
    const { store, cards, sweep, detached } = await setUp(false);
    const lost = await store.create(newQuestion(detached));
    await store.create(newQuestion());
    expect(await sweepUndelivered(sweep, 60_000)).toBe(0);
    expect(await sweepUndelivered(sweep, 0)).toBe(1);
    expect(cards.posted).toEqual([lost.id]);
    expect((await store.get(lost.id))?.card).toEqual({ channel: 'D1', ts: '1.1' });
    expect(await sweepUndelivered(sweep, 0)).toBe(0);
  });

  it('posts and attaches the card of a durable round’s question left unattached, and forgets the ones that ended or have their card', async () => {
    const { prefix, store, cards, sweep } = await setUp(false);
    const round = { id: 'continuation-1', round: 1, keys: ['a'] };
    const left = await store.create(newQuestion({ round }));
    const answered = await store.create(newQuestion({ round: { ...round, keys: ['b'] } }));
    await store.finish(answered.id, { action: 'decline' }, 'declined');
    const index = keys(prefix).unattached;
    const redis = new Redis(redisUrl());
    try {
      expect(await redis.zcard(index)).toBe(2);
      expect(await sweepUndelivered(sweep, 60_000)).toBe(0);
      expect(await redis.zrange(index, '0', '-1')).toEqual([left.id]);
      expect(await sweepUndelivered(sweep, 0)).toBe(1);
      expect(cards.posted).toEqual([left.id]);
      expect((await store.get(left.id))?.card).toEqual({ channel: 'D1', ts: '1.1' });
      expect(await sweepUndelivered(sweep, 0)).toBe(0);
      expect(await redis.exists(index)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });

  it('finds an API question left without a card behind more than a thousand pending ones that have theirs', async () => {
    const { store, cards, sweep, detached } = await setUp(false);
    for (let i = 0; i < 1_001; i++) {
      const attached = await store.create(newQuestion({ ...detached, timeoutMs: 60_000 }));
      await store.attachCards(attached.id, [{ channel: 'D1', ts: `0.${i}` }]);
    }
    // Its deadline is after theirs, so it comes after them in every index by deadline.
    const lost = await store.create(newQuestion({ ...detached, timeoutMs: 120_000 }));
    expect(await sweepUndelivered(sweep, 0)).toBe(1);
    expect(cards.posted).toEqual([lost.id]);
  });

  it('ends one whose card cannot be posted as delivery_failed instead of letting it wait for its deadline', async () => {
    const { store, sweep, detached } = await setUp(true);
    const lost = await store.create(newQuestion(detached));
    await sweepUndelivered(sweep, 0);
    expect(await store.get(lost.id)).toMatchObject({ state: 'cancelled', reason: 'delivery_failed' });
  });
});

describe('the undelivered sweep every replica runs', () => {
  it('stops without waiting for a delivery under way, and does not start that delivery twice meanwhile', async () => {
    const store = await openStore(uniquePrefix(), 'replica-b');
    const question = await store.create(newQuestion({ client: 'ci', place: { dm: 'U123' } }));
    // A delivery whose post waits (a busy DM) until the test lets it through.
    const { promise: posted, resolve: post } = deferred();
    const deliveries: string[] = [];
    // Each sweep runs when the test fires the one the previous sweep scheduled on its end.
    let scheduled = deferred<() => void>();
    const sweep = startDeliverySweep(
      {
        undelivered: (graceMs) => store.undelivered(graceMs),
        redeliver: (q) => (deliveries.push(q.id), posted),
        clock: { now: Date.now, schedule: (fn) => (scheduled.resolve(fn), () => undefined) },
        logger: { warn: () => undefined },
      },
      { graceMs: 0, everyMs: 1_000 },
    );
    for (let i = 0; i < 2; i++) {
      const run = await scheduled.promise;
      scheduled = deferred<() => void>();
      run();
    }
    await scheduled.promise;
    expect(deliveries).toEqual([question.id]);
    await sweep();
    post();
  });
});
