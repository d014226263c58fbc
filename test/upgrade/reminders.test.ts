// Rolling upgrade from 001d570: reminder jobs keep their name, data and options; what changed is the worker's
// handling of one that comes due before its question's card is out: 001d570's dropped it (relay.remind needs
// the card), this release's puts it back for a second until the card is out. Here a question record and its
// reminder jobs written as 001d570 wrote them are run by this release's worker: each fires once, the early one
// once its card is out. The other way round (a 001d570 worker taking a job this release put back) is read from
// 001d570's code in the README's Upgrading section: it sends the job's reminder if the card is out, else drops
// it, once either way.
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { uniquePrefix } from '../setup/context.js';
import { collector, openStore, rawRedis, redisTimeMs } from '../store/helpers.js';

const queues: Queue[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.close()));
});

/** A pending question's hash as 001d570's create script left it (src/store/record.ts createdFields, times). */
function oldRecord(id: string, createdAt: number): Record<string, string> {
  return {
    id,
    server: 'github',
    userId: 'U0UPG',
    message: 'Merge the release branch?',
    state: 'pending',
    holder: 'old-replica',
    origin: '{"userId":"U0UPG","teamId":"T0UPG","channelId":"C0UPG"}',
    requestedSchema: '{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}',
    createdAt: String(createdAt),
    deadline: String(createdAt + 600_000),
    reminders: '1',
  };
}

/** 001d570's addReminders (src/store/reminders.ts) for one reminder at `at`, byte for byte. */
async function addOldReminder(queue: Queue, id: string, createdAt: number, at: number): Promise<void> {
  await queue.addBulk([
    {
      name: 'reminder',
      data: { id, at },
      opts: {
        jobId: `${id}-r0`,
        timestamp: createdAt,
        delay: Math.max(0, at - createdAt),
        attempts: 3,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: { age: 86_400 },
      },
    },
  ]);
}

describe('reminders across the upgrade from 001d570', () => {
  it('fires each reminder the previous release queued once, one due before its card once the card is out', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    const queue = new Queue('reminders', { connection: redis, prefix: `${prefix}:{bull}` });
    queues.push(queue);
    const now = await redisTimeMs(redis);
    // One whose card the previous release had posted (attachCards: cardChannel, cardTs), one without a card yet.
    await redis.hset(`${prefix}:{q}:question:q-carded`, {
      ...oldRecord('q-carded', now),
      cardChannel: 'D0UPG',
      cardTs: '1767225600.000100',
    });
    await redis.hset(`${prefix}:{q}:question:q-early`, oldRecord('q-early', now));
    await addOldReminder(queue, 'q-carded', now, now);
    await addOldReminder(queue, 'q-early', now, now);

    const store = await openStore(prefix, 'new-replica');
    const fired = collector<[string, number]>();
    await store.startReminders((id, at) => Promise.resolve(fired.push([id, at])));
    expect(await fired.next(1)).toEqual([['q-carded', now]]);
    // The early one is put back to wait for its card; the card the old replica's outbox posts lands.
    await expect.poll(() => redis.zscore(`${prefix}:{bull}:reminders:delayed`, 'q-early-r0')).not.toBeNull();
    await redis.hset(`${prefix}:{q}:question:q-early`, { cardChannel: 'D0UPG', cardTs: '1767225600.000200' });
    expect(await fired.next(2)).toEqual([
      ['q-carded', now],
      ['q-early', now],
    ]);

    // Both jobs are done (removeOnComplete), so neither can fire again.
    await expect.poll(() => redis.exists(`${prefix}:{bull}:reminders:q-early-r0`)).toBe(0);
    expect(await redis.exists(`${prefix}:{bull}:reminders:q-carded-r0`)).toBe(0);
    expect(fired.values).toEqual([
      ['q-carded', now],
      ['q-early', now],
    ]);
  });
});
