// The rescue (store/slot-rescue.ts) run by several replicas at once: a question's rescue count must rise once
// per new job its slot is actually given, not once per look of each replica, or a healthy question whose slot's
// job is still working through a backlog is given up (it leaves the due index and never ends).
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { TIMEOUT_QUEUE, keys } from '../../src/redis/index.js';
import { withScripts } from '../../src/store/scripts.js';
import { SlotRescue, type RescueDeps } from '../../src/store/slot-rescue.js';
import { slotOf } from '../../src/store/slots.js';
import { uniquePrefix } from '../setup/context.js';
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
} from './helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the rescue on several replicas', () => {
  it('counts one rescue per new job a slot is given, however many replicas look meanwhile', async () => {
    const prefix = uniquePrefix();
    const k = keys(prefix);
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const q = await store.create(newQuestion({ timeoutMs: 50 }));
    const queue = new Queue(TIMEOUT_QUEUE, { connection: redis, prefix: k.bullPrefix });
    // As if the create that opened the slot had died before its BullMQ add: a marker, no job.
    const [job] = await scanAll(redis, `${prefix}:{bull}:timeouts:${slotOf(q.deadline)}.*`);
    expect(await queue.remove(job?.split(':').pop() ?? '')).toBe(1);
    const rescueAfterMs = 200;
    await until('overdue beyond rescueAfterMs', 5_000, async () => {
      return (await redisTimeMs(redis)) > q.deadline + rescueAfterMs + 20;
    });

    // Three replicas' looks in quick succession, the first rescue's job add still in flight (not made yet).
    const added: number[] = [];
    const slots: RescueDeps['slots'] = {
      queue,
      addSlot: (slot: number) => {
        added.push(slot);
        return Promise.resolve();
      },
    };
    const logger = recordingLogger();
    const cmd = withScripts(redis);
    const looks = ['a', 'b', 'c', 'a'].map(
      () => new SlotRescue({ cmd, keys: k, slots, logger, markerTtlMs: 60_000 }, { rescueAfterMs }),
    );
    for (const look of looks) await look.once();

    expect(added).toEqual([slotOf(q.deadline)]);
    expect(await redis.hget(k.rescues, q.id)).toBe('1');
    expect(await redis.zscore(k.due, q.id)).not.toBeNull();
    expect(logger.logged.filter((l) => l.msg === 'gave up timing out questions')).toEqual([]);
    await queue.close();
  });

  it('gives up no question of a slot whose job works slowly through a backlog, and ends each once', async () => {
    const prefix = uniquePrefix();
    const timers = { rescueEveryMs: 50, rescueAfterMs: 300 };
    const logger = recordingLogger();
    const replicas = await Promise.all(
      ['holder-a', 'holder-b', 'holder-c'].map((id) => openStore(prefix, id, { timers, logger })),
    );
    const redis = rawRedis();
    const backlog = 300;
    await slotRoom(redis, 5_000);
    const [creator] = replicas;
    if (!creator) throw new Error('no replica');
    const ids = new Set<string>();
    for (let i = 0; i < backlog; i++) ids.add((await creator.create(newQuestion({ timeoutMs: 50 }))).id);
    // As after an outage: every question overdue beyond rescueAfterMs before any worker runs its slot's job.
    await sleep(timers.rescueAfterMs + 200);

    // A healthy but slow onDue (100 ms a question: 20 lanes end ~200 a second), the job well alive throughout.
    const ended = collector<string>();
    for (const store of replicas)
      await store.startTimeouts(async (id) => {
        await sleep(100);
        if ((await store.finish(id, { action: 'cancel' }, 'timed_out')).won) ended.push(id);
      });
    const gaveUp = () => logger.logged.filter((l) => l.msg === 'gave up timing out questions');
    await until('every question ended, or one given up', 20_000, () =>
      Promise.resolve(ended.values.length >= backlog || gaveUp().length > 0),
    );

    expect(gaveUp()).toEqual([]);
    await until('every question ended', 20_000, () => Promise.resolve(ended.values.length >= backlog));
    expect(new Set(ended.values)).toEqual(ids);
    expect(ended.values).toHaveLength(backlog);
  });
});
