import { describe, expect, it } from 'vitest';
import { uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore, rawRedis } from './helpers.js';

describe('pendingFor', () => {
  it("lists a person's pending questions soonest deadline first, and drops each one as it ends", async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    const late = await store.create(newQuestion({ userId: 'U1', timeoutMs: 30_000 }));
    const soon = await store.create(newQuestion({ userId: 'U1', timeoutMs: 10_000 }));
    const middle = await store.create(newQuestion({ userId: 'U1', timeoutMs: 20_000 }));
    const other = await store.create(newQuestion({ userId: 'U2' }));

    expect((await store.pendingFor('U1')).map((q) => q.id)).toEqual([soon.id, middle.id, late.id]);
    expect(await store.pendingFor('U1')).toContainEqual(soon);
    await store.finish(middle.id, { action: 'decline' }, 'declined');
    expect((await store.pendingFor('U1')).map((q) => q.id)).toEqual([soon.id, late.id]);
    expect((await store.pendingFor('U2')).map((q) => q.id)).toEqual([other.id]);
    expect(await store.pendingFor('U-nobody')).toEqual([]);
  });

  it('forgets entries whose record expired without ending', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const kept = await store.create(newQuestion({ userId: 'U1' }));
    const lost = await store.create(newQuestion({ userId: 'U1' }));
    await redis.del(`${prefix}:{q}:question:${lost.id}`);

    expect((await store.pendingFor('U1')).map((q) => q.id)).toEqual([kept.id]);
    expect(await redis.zscore(`${prefix}:{q}:user:U1`, lost.id)).toBeNull();
  });
});
