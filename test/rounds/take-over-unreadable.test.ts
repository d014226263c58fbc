// A take-over sweep over Redis claims each lapsed or complete round, then reads it. One round whose record could
// not be read (a part of it evicted, a field another version wrote) threw out of the whole sweep, every round after
// it left untaken, sweep after sweep, until that record expired (an hour past its deadline). Now it is logged and
// left out, and the sweep resumes the others.
import { describe, expect, it } from 'vitest';
import { startTakeOver, type ResumedCall } from '../../src/rounds/index.js';
import { handClock, round } from './support.js';
import { redisRoundStores } from '../support/redis-rounds.js';

const redisStore = redisRoundStores('sweep');

describe('a take-over sweep over Redis with one unreadable round', () => {
  it('resumes the rounds after it and logs the one it cannot read', async () => {
    const { redis, k, store } = await redisStore();
    // Both answered, unclaimed, their holder gone: each is the sweep's to claim. The broken one sorts first.
    const broken = await store.open({ ...round, tool: 'broken', deadline: round.deadline - 1_000 });
    const whole = await store.open({ ...round, tool: 'whole' });
    for (const { id } of [broken, whole]) await store.answer(id, 1, 'a', { action: 'decline' }, undefined);
    await redis.del(k.roundRequests(broken.id)); // e.g. evicted under maxmemory

    const resumed: ResumedCall[] = [];
    const warned: { msg: string; round?: string }[] = [];
    const clock = handClock();
    const stop = startTakeOver({
      store,
      claimant: 'r2',
      clock,
      everyMs: 1_000,
      resume: (call) => Promise.resolve(void resumed.push(call)),
      logger: { warn: (obj: { round?: string }, msg: string) => void warned.push({ msg, round: obj.round }) },
    });
    try {
      await clock.advance(1_000);
      await expect.poll(() => resumed.map((call) => call.tool)).toEqual(['whole']);
      await expect
        .poll(() => warned)
        .toEqual([{ msg: 'round of a stopped replica cannot be read: not taken over', round: broken.id }]);
    } finally {
      await stop();
    }
  });
});
