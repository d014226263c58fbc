// A reminder is a nudge to answer before the deadline: one that comes to be sent at or after its question's
// deadline (it waited for a card slowed by Slack's pacing, or every replica was down across the deadline and its
// job runs before the timeout's) would tell people a question "is still waiting" in the moment it expires.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis, redisTimeMs } from '../store/helpers.js';

describe('a reminder that comes to be sent once its question’s deadline has passed', () => {
  const prefix = uniquePrefix();
  afterAll(async () => {
    await deleteKeysUnder(redisUrl(), prefix);
  });

  it('is dropped, not sent, though the question is still pending (its timeout not yet run)', async () => {
    // Reminders only: no timeout worker ends the question at its deadline, as while replicas restart.
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const fired = collector<[string, number]>();
    await store.startReminders((id, at) => Promise.resolve(fired.push([id, at])));
    const now = await redisTimeMs(redis);
    const late = await store.create(newQuestion({ timeoutMs: 400 }), { remindAt: [now + 100] });
    const job = `${prefix}:{bull}:reminders:${late.id}-r0`;
    // Due before its card is out: the worker takes it and puts it back to wait for the card.
    await vi.waitFor(
      async () => {
        if ((await redis.hexists(job, 'processedOn')) !== 1) throw new Error('not taken yet');
      },
      { timeout: 10_000, interval: 20 },
    );
    // The card comes out only once the deadline has passed (on Redis's clock, the deadline's).
    await vi.waitFor(
      async () => {
        if ((await redisTimeMs(redis)) < late.deadline) throw new Error('deadline not passed yet');
      },
      { timeout: 10_000, interval: 20 },
    );
    expect((await store.get(late.id))?.state).toBe('pending');
    await store.attachCards(late.id, [{ channel: 'D1', ts: '1.000001' }]);
    // Its job runs once more and completes (removeOnComplete): by then it has been sent, or dropped.
    await vi.waitFor(
      async () => {
        if ((await redis.exists(job)) !== 0) throw new Error('job still there');
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(fired.values).toEqual([]);
  });
});
