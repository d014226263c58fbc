import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { QueueWakes, TIMEOUT_QUEUE, keys } from '../../src/redis/index.js';
import { systemClock } from '../../src/clock.js';
import { MAX_RESCUES } from '../../src/store/slot-rescue.js';
import { withScripts } from '../../src/store/scripts.js';
import { slotHandler, slotOf } from '../../src/store/slots.js';
import type { JobData } from '../../src/store/timers.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { until } from '../support/until.js';
import {
  collector,
  newQuestion,
  openStore,
  rawRedis,
  recordingLogger,
  redisTimeMs,
  scanAll,
  slotRoom,
  timedOut,
} from './helpers.js';

describe('timeouts', () => {
  it('fires onDue once the deadline has passed, never before, and its cancel reaches the holder', async () => {
    const logger = recordingLogger();
    const store = await openStore(uniquePrefix(), 'holder-a', { logger });
    const redis = rawRedis();
    const due = collector<{ id: string; at: number; won: boolean }>();
    const delivered = collector<Question>();
    await store.startInbox((q) => delivered.push(q));
    await store.startTimeouts(async (id) => {
      const at = await redisTimeMs(redis);
      const result = await store.finish(id, { action: 'cancel' }, 'timed_out');
      due.push({ id, at, won: result.won });
    });

    const q = await store.create(newQuestion({ timeoutMs: 300 }));
    const [fired] = await due.next(1);
    expect(fired).toMatchObject({ id: q.id, won: true });
    expect(fired?.at).toBeGreaterThanOrEqual(q.deadline);
    const [ended] = await delivered.next(1);
    expect(ended).toMatchObject({
      id: q.id,
      state: 'cancelled',
      reason: 'timed_out',
      outcome: { action: 'cancel' },
    });
    // Removing its own (still active) job from inside the handler is expected to do nothing, quietly.
    expect(logger.logged.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('removes the slot job of a slot whose last question finished, so only unfinished questions come due', async () => {
    const prefix = uniquePrefix();
    const creator = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    await slotRoom(redis, 2_000);
    const answered = await creator.create(newQuestion({ timeoutMs: 200 }));
    const slotJobs = (q: Question) => scanAll(redis, `${prefix}:{bull}:timeouts:${slotOf(q.deadline)}.*`);
    expect(await slotJobs(answered)).toHaveLength(1);

    await creator.finish(answered.id, { action: 'accept', content: { ok: true } }, 'answered');
    // The finish does not wait for the job's removal; close() does.
    await creator.close();
    expect(await slotJobs(answered)).toEqual([]);
    expect(await redis.exists(keys(prefix).slot(String(slotOf(answered.deadline))))).toBe(0);

    const store = await openStore(prefix, 'holder-b');
    const open = await store.create(newQuestion({ timeoutMs: 400 }));
    expect(await slotJobs(open)).toHaveLength(1);
    const due = collector<string>();
    await store.startTimeouts((id) => Promise.resolve(due.push(id)));
    // The answered question was due first; had it stayed in the due index, it would be ahead of this one.
    expect(await due.next(1)).toEqual([open.id]);
  });

  it('gives questions whose deadlines share a slot one job, and times each of them out', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const asked = await Promise.all(
      Array.from({ length: 50 }, () => store.create(newQuestion({ timeoutMs: 300 }))),
    );
    const slots = new Set(asked.map((q) => slotOf(q.deadline)));
    expect(slots.size).toBeLessThan(asked.length);
    const jobs = await redis.zrange(`${prefix}:{bull}:timeouts:delayed`, '0', '-1');
    expect(jobs.map((id) => Number(id.split('.')[0])).sort()).toEqual([...slots].sort());

    const ended = collector<string>();
    await store.startTimeouts(async (id) => {
      const result = await store.finish(id, { action: 'cancel' }, 'timed_out');
      if (result.won) ended.push(id);
    });
    expect((await ended.next(asked.length)).sort()).toEqual(asked.map((q) => q.id).sort());
    expect(await redis.zcard(keys(prefix).due)).toBe(0);
    await markersGone(redis, prefix);
  });

  it('gives questions created apart, with deadlines apart in one slot, one job that walks to each', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    await slotRoom(redis, 2_000);
    const asked: Question[] = [];
    // Deadlines ~100 ms apart, and created one after another: with 10 ms slots each had its own job.
    for (const timeoutMs of [300, 400, 500, 600, 700])
      asked.push(await store.create(newQuestion({ timeoutMs })));
    expect(new Set(asked.map((q) => slotOf(q.deadline))).size).toBe(1);
    expect(await redis.zcard(`${prefix}:{bull}:timeouts:delayed`)).toBe(1);

    const ended = await timedOut(store, redis);
    const fired = await ended.next(asked.length);
    expect(fired.map((f) => f.id)).toEqual(asked.map((q) => q.id));
    for (const [i, q] of asked.entries()) expect(fired[i]?.at).toBeGreaterThanOrEqual(q.deadline);
    expect(await redis.zcard(keys(prefix).due)).toBe(0);
    await markersGone(redis, prefix);
  });

  it('times out a shorter question created after a longer one in the same slot at its own deadline', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    await slotRoom(redis, 8_000);
    const longer = await store.create(newQuestion({ timeoutMs: 5_000 }));
    const shorter = await store.create(newQuestion({ timeoutMs: 300 }));
    expect(slotOf(shorter.deadline)).toBe(slotOf(longer.deadline));
    expect(await redis.zcard(`${prefix}:{bull}:timeouts:delayed`)).toBe(1);

    const due = await timedOut(store, redis);
    const [fired] = await due.next(1);
    expect(fired?.id).toBe(shorter.id);
    expect(fired?.at).toBeGreaterThanOrEqual(shorter.deadline);
    // Not at the longer one's deadline, where the slot's job was due before the create moved it.
    expect(fired?.at).toBeLessThan(longer.deadline);
  });

  it('follows a wake time lowered while its job was active (a create racing the job putting itself back)', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    await slotRoom(redis, 8_000);
    const first = await store.create(newQuestion({ timeoutMs: 200 }));
    const longer = await store.create(newQuestion({ timeoutMs: 5_000 }));
    const due = collector<{ id: string; at: number }>();
    const onDue = async (id: string) => {
      const at = await redisTimeMs(redis);
      if ((await store.finish(id, { action: 'cancel' }, 'timed_out')).won) due.push({ id, at });
    };
    const handler = slotHandler({
      cmd: withScripts(rawRedis()),
      keys: keys(prefix),
      runningHere: new Set(),
      onDue,
      // Wakes that write nothing: the driven worker below takes the job itself.
      wakes: new QueueWakes({
        wake: () => Promise.resolve(),
        schedule: systemClock.schedule,
        logger: recordingLogger(),
        queue: TIMEOUT_QUEUE,
      }),
    });
    const raced = collector<Question>();
    const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
    // The processor's steps, driven: after its step found `longer` ahead (w = its deadline) and before it puts
    // the job back, a create lowers w; that create's own move fails (the job is active).
    const worker = new Worker(
      TIMEOUT_QUEUE,
      (job: Job<JobData>, token?: string) => {
        const moveToDelayed = job.moveToDelayed.bind(job);
        job.moveToDelayed = async (at: number, t?: string) => {
          if (raced.values.length === 0) raced.push(await store.create(newQuestion({ timeoutMs: 300 })));
          await moveToDelayed(at, t);
        };
        return handler(job, token);
      },
      { connection, prefix: keys(prefix).bullPrefix },
    );
    try {
      const [[firstFired], [racer]] = [await due.next(1), await raced.next(1)];
      expect(firstFired?.id).toBe(first.id);
      expect(slotOf(racer?.deadline ?? 0)).toBe(slotOf(longer.deadline));
      const [, fired] = await due.next(2);
      expect(fired?.id).toBe(racer?.id);
      expect(fired?.at).toBeGreaterThanOrEqual(racer?.deadline ?? Infinity);
      expect(fired?.at).toBeLessThan(longer.deadline);
    } finally {
      await worker.close();
      await connection.quit();
    }
  });

  it('gives a slot whose job was lost a new one, so its questions still time out (the rescue), and forgets their rescue count once they end', async () => {
    const prefix = uniquePrefix();
    const timers = { rescueEveryMs: 50, rescueAfterMs: 200 };
    const store = await openStore(prefix, 'holder-a', { timers });
    const redis = rawRedis();
    const q = await store.create(newQuestion({ timeoutMs: 50 }));
    const queue = new Queue(TIMEOUT_QUEUE, { connection: redis, prefix: keys(prefix).bullPrefix });
    // As if the create that opened the slot had died between its script and its BullMQ add: a marker, no job.
    const [job] = await scanAll(redis, `${prefix}:{bull}:timeouts:${slotOf(q.deadline)}.*`);
    expect(await queue.remove(job?.split(':').pop() ?? '')).toBe(1);
    await queue.close();

    const due = await timedOut(store, redis);
    const [fired] = await due.next(1);
    expect(fired?.id).toBe(q.id);
    expect(fired?.at).toBeGreaterThanOrEqual(q.deadline + timers.rescueAfterMs);
    expect(await redis.hexists(keys(prefix).rescues, q.id)).toBe(0);
  });

  it('gives up on a question whose timeout handler always fails after MAX_RESCUES rescues, and logs it', async () => {
    const prefix = uniquePrefix();
    const gaveUp = collector<unknown>();
    const logger = {
      ...recordingLogger(),
      warn: (obj: unknown, msg: string) => {
        if (msg === 'gave up timing out questions') gaveUp.push(obj);
      },
    };
    const timers = { rescueEveryMs: 50, rescueAfterMs: 200 };
    const store = await openStore(prefix, 'holder-a', { timers, logger });
    const redis = rawRedis();
    const tried = collector<string>();
    await store.startTimeouts((id) => {
      tried.push(id);
      return Promise.reject(new Error('onDue always fails'));
    });
    const q = await store.create(newQuestion({ timeoutMs: 50 }));
    expect(await gaveUp.next(1)).toEqual([{ questions: [q.id], rescues: MAX_RESCUES }]);
    // Out of the due index, so no look gives it a job again; its count is gone with it.
    expect(await redis.zscore(keys(prefix).due, q.id)).toBeNull();
    expect(await redis.hexists(keys(prefix).rescues, q.id)).toBe(0);
    expect(tried.values.length).toBeGreaterThan(MAX_RESCUES);
  });

  it('retries a timeout whose handler failed', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    const calls = collector<string>();
    await store.startTimeouts((id) => {
      calls.push(id);
      return calls.values.length === 1 ? Promise.reject(new Error('Redis blinked')) : Promise.resolve();
    });
    const q = await store.create(newQuestion({ timeoutMs: 50 }));
    expect(await calls.next(2)).toEqual([q.id, q.id]);
  });
});

/**
 * The slots' markers are deleted by their jobs' step after the last hand-over: a round trip after the last onDue
 * resolved, so after the test saw the last end, not with it.
 */
async function markersGone(redis: Redis, prefix: string): Promise<void> {
  await until('every slot marker deleted', 5_000, async () => {
    return (await scanAll(redis, keys(prefix).slot('*'))).length === 0;
  });
}
