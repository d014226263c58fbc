// A create whose deadline is before its slot job's wake time lowers the wake time (w) in its script and then
// moves the job earlier (SlotJobs.moveEarlier). When that move fails for a Redis reason (not "the job is active
// or gone"), the question must still time out, never early, and not at the old w: the move is retried once
// Redis answers again. Real Redis; the create's queue connection goes through a TCP proxy that is cut. The
// retry waits on the store's clock, here one whose timers run when the test says (the timeout job's own delay
// stays real: BullMQ's).
import { once } from 'node:events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { QueueWakes, TIMEOUT_QUEUE, keys } from '../../src/redis/index.js';
import { withScripts } from '../../src/store/scripts.js';
import { SlotDrops } from '../../src/store/slot-drops.js';
import { SlotJobs, slotOf } from '../../src/store/slots.js';
import { writeQuestion } from '../../src/store/transitions.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { newQuestion, openStore, rawRedis, recordingLogger, slotRoom, timedOut } from './helpers.js';
import { startProxy, type TcpProxy } from './tcp-proxy.js';

let proxy: TcpProxy | undefined;
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  await proxy?.close();
});

describe('a slot job not moved earlier because Redis failed', () => {
  it('is moved once Redis answers again: the question times out at its deadline, not the old wake time', async () => {
    const prefix = uniquePrefix();
    closing.push(() => deleteUnder(prefix));
    const k = keys(prefix);
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    await slotRoom(redis, 10_000);
    const longer = await store.create(newQuestion({ timeoutMs: 6_000 }));

    // Another replica's create: its script runs on a healthy connection, its queue's on one about to be cut.
    proxy = await startProxy(redisUrl());
    const queueConnection = new Redis(proxy.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const queue = new Queue(TIMEOUT_QUEUE, { connection: queueConnection, prefix: k.bullPrefix });
    queue.on('error', () => undefined);
    closing.push(() => queueConnection.quit().catch(() => queueConnection.disconnect()));
    closing.push(() => queue.close());
    await queue.waitUntilReady();
    const cmd = withScripts(new Redis(redisUrl()));
    closing.push(() => cmd.quit());
    const logger = recordingLogger();
    const retries: (() => void)[] = [];
    const retryClock = {
      now: () => Date.now(),
      schedule: (fn: () => void) => (retries.push(fn), () => undefined),
    };
    // Wakes that write nothing: this test is about the moves (a wake's own failure in the outage is logged too).
    const wake = () => Promise.resolve();
    const noWakes = new QueueWakes({ wake, schedule: systemClock.schedule, logger, queue: TIMEOUT_QUEUE });
    const slots = new SlotJobs(queue, logger, 60, retryClock, noWakes);
    closing.push(() => slots.settle());
    const reminders = new Queue('unused', { connection: cmd, prefix: k.bullPrefix });
    closing.push(() => reminders.close());
    const drops = new SlotDrops({ cmd, keys: k, slots, clock: systemClock, logger });
    const other = { holderId: 'holder-b', retentionSec: 60, keys: k, logger, cmd, slots, drops, reminders };

    await proxy.cut();
    const shorter = await writeQuestion(other, newQuestion({ timeoutMs: 300 }), {});
    expect(slotOf(shorter.deadline)).toBe(slotOf(longer.deadline));
    expect(logger.logged).toMatchObject([
      {
        level: 'warn',
        msg: 'slot job not moved to an earlier deadline; retrying',
        obj: { question: shorter.id },
      },
    ]);
    // The retry waits on the store's clock: one try scheduled there, run once the connection is back.
    expect(retries).toHaveLength(1);
    await proxy.restore();
    await once(queueConnection, 'ready');
    for (const retry of retries.splice(0)) retry();

    const due = await timedOut(store, redis);
    const [fired] = await due.next(1);
    expect(fired?.id).toBe(shorter.id);
    expect(fired?.at).toBeGreaterThanOrEqual(shorter.deadline);
    // Not at the longer one's deadline, where the slot's job stayed while Redis refused the move.
    expect(fired?.at).toBeLessThan(longer.deadline);
  });
});
