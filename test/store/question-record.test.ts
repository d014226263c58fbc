import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QuestionStore, StoreError } from '../../src/store/index.js';
import { uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore, rawRedis, redisTimeMs, scanAll } from './helpers.js';

describe('question records', () => {
  it('round-trips a created question, with createdAt and deadline taken from Redis TIME', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    const redis = rawRedis();
    const before = await redisTimeMs(redis);
    const created = await store.create(newQuestion({ timeoutMs: 45_000 }));
    const after = await redisTimeMs(redis);

    expect(created.id).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(created.createdAt).toBeGreaterThanOrEqual(before);
    expect(created.createdAt).toBeLessThanOrEqual(after);
    expect(created.deadline).toBe(created.createdAt + 45_000);
    expect(await store.get(created.id)).toEqual({ ...newQuestion({ timeoutMs: 45_000 }), ...created });
    expect(created).toMatchObject({ state: 'pending', holder: 'holder-a' });
  });

  it('round-trips a multi-person DM place and the call an origin runs for', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    const asked = newQuestion({ place: { mpim: ['U1', 'U2'] }, origin: { userId: 'U1', callId: 'call_x' } });
    const created = await store.create(asked);
    expect(await store.get(created.id)).toMatchObject({ place: asked.place, origin: asked.origin });
    await store.close();
  });

  it('round-trips any text a question carries, and a lone surrogate as U+FFFD as UTF-8 has it', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(text, text, async (message, note) => {
        const created = await store.create(newQuestion({ message, metadata: { note } }));
        const read = await store.get(created.id);
        expect(read?.message).toBe(Buffer.from(message).toString());
        expect(read?.metadata).toEqual({ note: Buffer.from(note).toString() });
      }),
      { numRuns: 60 },
    );
    const lone = await store.create(newQuestion({ message: 'a \ud800 b "\\ud800" 😀\u0000' }));
    expect((await store.get(lone.id))?.message).toBe('a \ufffd b "\\ud800" 😀\u0000');
    await store.close();
  });

  it('returns undefined for an unknown id', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    expect(await store.get('no-such-question')).toBeUndefined();
  });

  it('keeps the Slack card on the record and ignores a card for a question that does not exist', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    const q = await store.create(newQuestion());
    await store.attachCards(q.id, [{ channel: 'D1', ts: '1700000000.000100' }]);
    await store.attachCards('gone', [{ channel: 'D1', ts: '1' }]);
    expect((await store.get(q.id))?.card).toEqual({ channel: 'D1', ts: '1700000000.000100' });
    expect(await store.get('gone')).toBeUndefined();
  });

  it('gives a finished record a TTL no longer than the retention', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a', { retentionSec: 120 });
    const q = await store.create(newQuestion({ timeoutMs: 600_000 }));
    const redis = rawRedis();
    const key = (await scanAll(redis, `*${q.id}*`)).find((k) => k.includes(':question:'));
    expect(key).toBeDefined();
    expect(await redis.pttl(key ?? '')).toBeGreaterThan(600_000);

    await store.finish(q.id, { action: 'decline' }, 'declined');
    const ttl = await redis.ttl(key ?? '');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(120);
  });

  it('writes every key, BullMQ ones included, under the prefix', async () => {
    const prefix = uniquePrefix();
    const tag = prefix.split(':').at(-1) ?? '';
    const store = await openStore(prefix, `holder-${tag}`);
    await store.startTimeouts(() => Promise.resolve());
    const q = await store.create(newQuestion());
    await store.attachCards(q.id, [{ channel: 'C1', ts: '1.2' }]);
    await store.finish(q.id, { action: 'accept', content: { ok: true } }, 'answered');
    await store.create(newQuestion());

    const redis = rawRedis();
    const ours = await scanAll(redis, `${prefix}:*`);
    expect(ours.some((k) => k.includes(':{bull}:timeouts:'))).toBe(true);
    expect(ours.some((k) => k.includes(`:{q}:inbox:holder-${tag}`))).toBe(true);
    // Named by this test's holder or question: its 6-hex tag alone turned up inside another run's random ids.
    const mentioningTest = [
      ...(await scanAll(redis, `*holder-${tag}*`)),
      ...(await scanAll(redis, `*${q.id}*`)),
    ];
    expect(mentioningTest.length).toBeGreaterThan(0);
    expect(mentioningTest.filter((k) => !k.startsWith(`${prefix}:`))).toEqual([]);
  });

  it('refuses to open, naming the URL, when Redis does not answer', async () => {
    const failure = QuestionStore.open({ url: 'redis://127.0.0.1:1', prefix: uniquePrefix(), holderId: 'h' });
    await expect(failure).rejects.toBeInstanceOf(StoreError);
    await expect(failure).rejects.toMatchObject({ code: 'redis_unavailable', name: 'StoreError' });
    await expect(failure).rejects.toThrow(/redis:\/\/127\.0\.0\.1:1.*REDIS_URL/);
  }, 5_000);
});
