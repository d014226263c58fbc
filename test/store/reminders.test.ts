import { describe, expect, it, vi } from 'vitest';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis, redisTimeMs } from './helpers.js';

describe('reminders', () => {
  it('fires each reminder of a pending question, skips ended ones and removes them on finish', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const fired = collector<[string, number]>();
    await store.startReminders((id, at) => Promise.resolve(fired.push([id, at])));
    // Reminders come due at their time from the question's creation (Redis TIME), not from their add, so
    // the earlier ones leave 300 ms for the quiet end and the finish to happen first on a loaded machine.
    const now = await redisTimeMs(redis);

    const endedQuietly = await store.create(newQuestion(), { remindAt: [now + 300] });
    // Ended without the finish cleanup (as if the job removal had failed): its reminder must be skipped.
    await redis.hset(`${prefix}:{q}:question:${endedQuietly.id}`, 'state', 'declined');
    const answered = await store.create(newQuestion(), { remindAt: [now + 310] });
    await store.finish(answered.id, { action: 'decline' }, 'declined');
    expect(await redis.exists(`${prefix}:{bull}:reminders:${answered.id}-r0`)).toBe(0);
    const open = await store.create(newQuestion(), { remindAt: [now + 500, now + 550] });
    await store.attachCards(open.id, [{ channel: 'D1', ts: '1.000001' }]);

    // Both earlier reminders were due first; had either fired, it would be ahead of these.
    expect(await fired.next(2)).toEqual([
      [open.id, now + 500],
      [open.id, now + 550],
    ]);
  });

  it('holds a reminder that comes due before its card is out until the card is attached, then fires it once', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const fired = collector<[string, number]>();
    await store.startReminders((id, at) => Promise.resolve(fired.push([id, at])));
    const at = (await redisTimeMs(redis)) + 100;
    const early = await store.create(newQuestion(), { remindAt: [at] });
    const job = `${prefix}:{bull}:reminders:${early.id}-r0`;
    // Its worker took it (BullMQ stamps processedOn) and, finding no card, put it back rather than fire it.
    const delayed = `${prefix}:{bull}:reminders:delayed`;
    await vi.waitFor(
      async () => {
        const taken = (await redis.hexists(job, 'processedOn')) === 1;
        if (!taken || (await redis.zscore(delayed, `${early.id}-r0`)) === null)
          throw new Error('not put back yet');
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(fired.values).toEqual([]);
    await store.attachCards(early.id, [{ channel: 'D1', ts: '1.000001' }]);
    expect(await fired.next(1)).toEqual([[early.id, at]]);
  });
});
