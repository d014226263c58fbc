// After a Sentinel failover to a replica that missed the last writes (asynchronous replication) and whose clock
// is behind the old master's, the new master's stream ids restart below the ids the holder's inbox already read.
// An end written there (an answer given after the failover) must still reach the waiting call. Simulated without
// a clock skew: the holder reads an entry written with an id 60 s ahead (an explicit XADD id), then the stream is
// gone (the promoted replica never had it), so the next end gets an id from the (60 s lower) clock.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis, redisTimeMs } from '../store/helpers.js';

const waitFor = async (check: () => Promise<boolean>, ms: number): Promise<boolean> => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
};

describe('the holder inbox after its stream went back (a failover to a replica behind in data and clock)', () => {
  it('hands over an answer written after the failover although its stream id is below the old cursor', async () => {
    const prefix = uniquePrefix();
    const holder = await openStore(prefix, 'holder-a');
    const answerer = await openStore(prefix, 'holder-b');
    const redis = rawRedis();
    const seen = collector<Question>();
    await holder.startInbox((q) => seen.push(q));
    const inbox = `${prefix}:{q}:inbox:holder-a`;

    // Before the failover: an ordinary answer reaches the holder.
    const before = await holder.create(newQuestion());
    await answerer.finish(before.id, { action: 'decline' }, 'declined');
    await seen.next(1);

    // The old master (clock 60 s ahead) wrote one more end to this inbox; the holder read and acknowledged it.
    const ahead = (await redisTimeMs(redis)) + 60_000;
    await redis.xadd(inbox, `${ahead}-0`, 'id', 'ended-on-the-old-master');
    expect(await waitFor(async () => (await redis.xlen(inbox)) === 0, 5_000)).toBe(true);

    // Failover: the promoted replica never received that write; its stream ids come from its own clock.
    await redis.del(inbox);

    // After the failover a person answers a question this holder waits on.
    const after = await holder.create(newQuestion());
    const won = await answerer.finish(after.id, { action: 'accept', content: { ok: true } }, 'answered');
    expect(won.won).toBe(true);
    const [[entryId] = ['']] = await redis.xrange(inbox, '-', '+');

    const handed = await Promise.race([
      seen.next(2).then((values) => values.map((q) => q.id)),
      new Promise<string[]>((r) => setTimeout(() => r(seen.values.map((q) => q.id)), 6_000)),
    ]);
    expect(
      handed,
      `the accepted answer (stream entry ${entryId}, below the entry ${ahead}-0 the holder read before the ` +
        'failover) reaches the holder',
    ).toEqual([before.id, after.id]);
  });
});
