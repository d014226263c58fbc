import { describe, expect, it, vi } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis, recordingLogger } from './helpers.js';

const ids = (qs: Question[]) => qs.map((q) => q.id).sort();
/** A lease long enough that it never lapses during a test unless the test removes it. */
const steady = { ttlMs: 60_000, renewEveryMs: 20_000 };

describe('orphan sweep', () => {
  it("ends a dead holder's questions exactly once as holder_lost, reported once across the survivors", async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((h) => openStore(prefix, `holder-${h}`)));
    for (const s of [a!, b!, c!]) await s.startLease(steady);
    const atB = collector<Question>();
    await b!.startInbox((q) => atB.push(q));
    const ofB = await Promise.all([1, 2, 3].map(() => b!.create(newQuestion())));
    const [ofA, ofC] = [await a!.create(newQuestion()), await c!.create(newQuestion())];

    b!.stopLease();
    // Stands in for the TTL running out, without waiting for it.
    await redis.del(`${prefix}:{q}:lease:holder-b`);
    const reported = collector<Question>();
    const onOrphaned = (q: Question) => Promise.resolve(reported.push(q));
    const [byA, byC] = await Promise.all([a!.sweepOrphans(onOrphaned), c!.sweepOrphans(onOrphaned)]);

    expect(ids([...byA, ...byC])).toEqual(ids(ofB));
    expect(ids(reported.values)).toEqual(ids(ofB));
    for (const q of reported.values) {
      expect(q).toMatchObject({ state: 'cancelled', reason: 'holder_lost', outcome: { action: 'cancel' } });
    }
    expect(
      await a!.finish(ofB[0]!.id, { action: 'accept', content: { ok: true } }, 'answered'),
    ).toMatchObject({
      won: false,
      state: 'cancelled',
    });
    expect((await c!.get(ofA.id))?.state).toBe('pending');
    // Every question above is for the same person; only the live holders' ones are still pending for them.
    expect(ids(await a!.pendingFor(ofA.userId))).toEqual(ids([ofA, ofC]));
    expect((await a!.get(ofC.id))?.state).toBe('pending');
    // The cancels go to the dead holder's own inbox only (read here because this "dead" process still runs).
    expect(ids(await atB.next(3))).toEqual(ids(ofB));
    expect(await a!.sweepOrphans(onOrphaned)).toEqual([]);
    expect(await redis.smembers(`${prefix}:{q}:holders`)).toEqual(expect.not.arrayContaining(['holder-b']));
  });

  it('leaves a dead holder’s round questions pending: any replica records their ends in the round', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    const [a, b] = await Promise.all(['a', 'b'].map((h) => openStore(prefix, `holder-${h}`)));
    for (const s of [a!, b!]) await s.startLease(steady);
    const ofRound = await b!.create(newQuestion({ round: { id: 'round_1', round: 1, keys: ['ok'] } }));
    const plain = await b!.create(newQuestion());
    b!.stopLease();
    await redis.del(`${prefix}:{q}:lease:holder-b`);

    expect(ids(await a!.sweepOrphans(() => Promise.resolve()))).toEqual([plain.id]);
    expect((await a!.get(ofRound.id))?.state).toBe('pending');
    const ended = await a!.finish(ofRound.id, { action: 'decline' }, 'declined');
    expect(ended).toMatchObject({ won: true, question: { state: 'declined' } });
    const [last] = await redis.xrevrange(`${prefix}:{q}:ended`, '+', '-', 'COUNT', 1);
    expect(last?.[1]).toEqual(['id', ofRound.id, 'state', 'declined', 'round', '1']);
  });

  it('leaves alone holders whose lease is alive and holders that never took a lease', async () => {
    const prefix = uniquePrefix();
    const [a, b, early] = await Promise.all(['a', 'b', 'early'].map((h) => openStore(prefix, `holder-${h}`)));
    await a!.startLease(steady);
    await b!.startLease(steady);
    const ofB = await b!.create(newQuestion());
    const ofEarly = await early!.create(newQuestion());

    expect(await a!.sweepOrphans(() => Promise.resolve())).toEqual([]);
    expect((await a!.get(ofB.id))?.state).toBe('pending');
    expect((await a!.get(ofEarly.id))?.state).toBe('pending');
  });

  it('sweeps on its own once a lease is no longer renewed and lapses', async () => {
    const prefix = uniquePrefix();
    const [a, b] = await Promise.all([openStore(prefix, 'holder-a'), openStore(prefix, 'holder-b')]);
    await a.startLease(steady);
    await b.startLease({ ttlMs: 200, renewEveryMs: 50 });
    const q = await b.create(newQuestion());
    const reported = collector<Question>();
    // The relay's end in production: the transition, then the card update of each question it won.
    const end: typeof a.finish = async (id, outcome, reason) => {
      const result = await a.finish(id, outcome, reason);
      if (result.won) reported.push(result.question);
      return result;
    };
    a.startOrphanSweep(end, { everyMs: 50 });

    b.stopLease();
    const [ended] = await reported.next(1);
    expect(ended).toMatchObject({ id: q.id, state: 'cancelled', reason: 'holder_lost' });
  });

  it('releases the lease on close, so what the replica left pending is swept at once', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    const [a, b] = await Promise.all([openStore(prefix, 'holder-a'), openStore(prefix, 'holder-b')]);
    await a.startLease(steady);
    await b.startLease(steady);
    b.startOrphanSweep((id, o, r) => b.finish(id, o, r), { everyMs: 60_000 });
    const q = await b.create(newQuestion());
    await b.close();

    expect(await redis.exists(`${prefix}:{q}:lease:holder-b`)).toBe(0);
    expect(ids(await a.sweepOrphans(() => Promise.resolve()))).toEqual([q.id]);
  });
});

describe('lease', () => {
  it('is renewed, re-registering the holder and warning once when it had lapsed meanwhile', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    const logger = recordingLogger();
    const store = await openStore(prefix, 'holder-a', { logger });
    await store.startLease({ ttlMs: 60_000, renewEveryMs: 20 });
    await redis.del(`${prefix}:{q}:lease:holder-a`);
    await redis.srem(`${prefix}:{q}:holders`, 'holder-a');

    await vi.waitFor(async () => {
      expect(await redis.exists(`${prefix}:{q}:lease:holder-a`)).toBe(1);
      expect(await redis.sismember(`${prefix}:{q}:holders`, 'holder-a')).toBe(1);
    });
    await vi.waitFor(() =>
      expect(logger.logged.filter((l) => l.level === 'warn').map((l) => l.obj)).toEqual([
        { holder: 'holder-a' },
      ]),
    );
  });

  it('fails startLease with redis_unavailable when Redis is gone', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    await store.close();
    await expect(store.startLease()).rejects.toMatchObject({ name: 'StoreError', code: 'redis_unavailable' });
  });
});

describe('lease and sweep shutdown', () => {
  it('leave no timer or connection behind after close', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'TCPWrap').length;
    const store = await openStore(uniquePrefix(), 'holder-a');
    await store.startLease({ ttlMs: 1_000, renewEveryMs: 100 });
    store.startOrphanSweep((id, o, r) => store.finish(id, o, r), { everyMs: 100 });
    await store.close();
    const after = process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'TCPWrap').length;
    // At most: a socket of an earlier test may still be closing when `before` is taken.
    expect(after).toBeLessThanOrEqual(before);
  });
});
