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

    // Both earlier reminders were due first; had either fired, it would be ahead of these.
    expect(await fired.next(2)).toEqual([
      [open.id, now + 500],
      [open.id, now + 550],
    ]);
  });
});
