import { describe, expect, it } from 'vitest';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis, redisTimeMs } from './helpers.js';

describe('reminders', () => {
  it('fires each reminder of a pending question, skips ended ones and removes them on finish', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const fired = collector<[string, number]>();
    await store.startReminders((id, at) => Promise.resolve(fired.push([id, at])));
    const now = await redisTimeMs(redis);

    const endedQuietly = await store.create(newQuestion(), { remindAt: [now + 50] });
    // Ended without the finish cleanup (as if the job removal had failed): its reminder must be skipped.
    await redis.hset(`${prefix}:{q}:question:${endedQuietly.id}`, 'state', 'declined');
    const answered = await store.create(newQuestion(), { remindAt: [now + 60] });
    await store.finish(answered.id, { action: 'decline' }, 'declined');
    expect(await redis.exists(`${prefix}:{bull}:reminders:${answered.id}-r0`)).toBe(0);
    const open = await store.create(newQuestion(), { remindAt: [now + 100, now + 150] });

    // Both earlier reminders were due first; had either fired, it would be ahead of these.
    expect(await fired.next(2)).toEqual([
      [open.id, now + 100],
      [open.id, now + 150],
    ]);
  });
});
