// A call the outbox paces to a later slot wakes the queue's workers at that slot (src/redis/queue-wakes.ts), so it
// does not wait for Redis's next `hz` tick. No worker runs here: the test pops the queue's marker itself, as an
// idle worker would, and tells the wake (member '0', score 0) from BullMQ's delay marker (member '1').
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTBOX_QUEUE, keys } from '../../src/redis/index.js';
import { Outbox, type OutboxJob } from '../../src/slack/outbox/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const post = (key: string): OutboxJob => ({
  method: 'chat.postMessage',
  channel: 'D1',
  args: { text: key },
  key,
});

describe("the outbox's wakes", () => {
  it('wake a worker when a call paced to a later slot is due, not before its slot', async () => {
    const prefix = uniquePrefix();
    const outbox = await Outbox.open({
      url: redisUrl(),
      prefix,
      logger: recordingLogger(),
      channelPaceMs: 8_000,
    });
    closing.push(() => outbox.close());
    const redis = new Redis(redisUrl());
    closing.push(() => redis.quit());
    const queue = new Queue(OUTBOX_QUEUE, { connection: redis, prefix: keys(prefix).bullPrefix });
    closing.push(() => queue.close());
    // The first post has its slot now (it waits for a worker, which never comes); the second is left queued for
    // the channel's next slot, a quarter of the pace (2 s) later: time enough to clear the adds' markers first.
    const first = outbox.send(post('first'));
    // The outbox closes before the call still waiting for a worker is awaited: its close answers that call.
    closing.push(
      () => first,
      () => outbox.close(),
    );
    expect(await outbox.sendOrLeave(post('second'))).toBeUndefined();
    const [second] = await queue.getJobs(['delayed']);
    if (!second) throw new Error('the second post is not delayed');
    // What the adds wrote (the first post's ready marker, the delay marker) is not a wake.
    await redis.del(queue.toKey('marker'));
    const popped = await redis.bzpopmin(queue.toKey('marker'), 10);
    expect(popped?.[1]).toBe('0');
    expect(Date.now()).toBeGreaterThanOrEqual(second.timestamp + second.delay);
  });
});
