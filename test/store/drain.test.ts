import { describe, expect, it } from 'vitest';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis } from './helpers.js';
import { deferred } from '../support/deferred.js';

describe('drain', () => {
  it('refuses new creates, lets a running timeout and an in-flight finish complete, and leaves no job behind', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const started = collector<string>();
    const { promise: gate, resolve: release } = deferred();
    await store.startTimeouts(async (id) => {
      started.push(id);
      await gate;
      await store.finish(id, { action: 'cancel' }, 'timed_out');
    });
    const timed = await store.create(newQuestion({ timeoutMs: 50 }));
    const answered = await store.create(newQuestion());
    const waiting = await store.create(newQuestion());
    await started.next(1);

    let finished = false;
    const inFlight = store.finish(answered.id, { action: 'decline' }, 'declined').then((r) => {
      finished = true;
      return r;
    });
    let drained = false;
    const draining = store.drain().then(() => (drained = true));
    await expect(store.create(newQuestion())).rejects.toMatchObject({ name: 'StoreError', code: 'draining' });
    expect(drained).toBe(false);
    release();
    await draining;

    expect(finished).toBe(true);
    expect(await inFlight).toMatchObject({ won: true });
    expect(await store.get(timed.id)).toMatchObject({ state: 'cancelled', reason: 'timed_out' });
    const bull = `${prefix}:{bull}:timeouts`;
    expect(await redis.llen(`${bull}:active`)).toBe(0);
    expect(await redis.exists(`${bull}:stalled`, `${bull}:${timed.id}`, `${bull}:${answered.id}`)).toBe(0);
    // Ending what is still waiting goes on after drain.
    expect(await store.finish(waiting.id, { action: 'cancel' }, 'call_ended')).toMatchObject({ won: true });
  });
});

describe('a draining store', () => {
  it('still creates a durable 2026 round’s question, which its round waits for, not this replica', async () => {
    const store = await openStore(uniquePrefix(), 'holder-stopping');
    await store.drain();
    await expect(store.create(newQuestion())).rejects.toMatchObject({ code: 'draining' });
    const round = { id: 'round_asked_at_stop', round: 2, keys: ['a'] };
    const asked = await store.create(newQuestion({ round }));
    expect(await store.get(asked.id)).toMatchObject({ state: 'pending', round });
  });
});
