// The watch's decision (store/timeout-watch.ts): this replica's timeout worker counts as stuck only when a question
// is late beyond the rescue's chance and more, its slot's job has waited for a worker that long since it came due,
// and this worker took no job meanwhile. Anything less is a healthy deployment's normal lateness. Then one look
// on an injected clock, over a real Redis: a restart each time the worker is stuck, its warn lines sparse.
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { TIMEOUT_QUEUE, keys } from '../../src/redis/index.js';
import { withScripts } from '../../src/store/scripts.js';
import { STUCK_AFTER_MS, TimeoutWatch, stuck, type Signs } from '../../src/store/timeout-watch.js';
import { RESCUE_AFTER_MS } from '../../src/store/slot-rescue.js';
import { uniquePrefix } from '../setup/context.js';
import { steppedClock } from '../support/stepped-clock.js';
import { until } from '../support/until.js';
import { newQuestion, openStore, rawRedis, recordingLogger, redisTimeMs } from './helpers.js';

const limits = { rescueAfterMs: RESCUE_AFTER_MS, stuckAfterMs: STUCK_AFTER_MS };
/** Just past every threshold: 90 s + 1 overdue, a job waiting 30 s + 1 since it came due, a worker idle as long. */
const wedged: Signs = {
  overdueMs: RESCUE_AFTER_MS + STUCK_AFTER_MS + 1,
  job: { state: 'waiting', attemptsMade: 0, dueForMs: STUCK_AFTER_MS + 1 },
  idleMs: STUCK_AFTER_MS + 1,
};
const job = (changes: Partial<NonNullable<Signs['job']>>): Signs => ({
  ...wedged,
  job: { state: 'waiting', attemptsMade: 0, dueForMs: STUCK_AFTER_MS + 1, ...changes },
});

describe('stuck', () => {
  it('is true past every threshold, for a job waiting, prioritized or still delayed past its time', () => {
    expect(stuck(wedged, limits)).toBe(true);
    expect(stuck(job({ state: 'prioritized' }), limits)).toBe(true);
    expect(stuck(job({ state: 'delayed' }), limits)).toBe(true);
  });

  it('is false at each threshold itself', () => {
    expect(stuck({ ...wedged, overdueMs: RESCUE_AFTER_MS + STUCK_AFTER_MS }, limits)).toBe(false);
    expect(stuck({ ...wedged, idleMs: STUCK_AFTER_MS }, limits)).toBe(false);
    expect(stuck(job({ dueForMs: STUCK_AFTER_MS }), limits)).toBe(false);
  });

  it('is false while the job runs, has ended, or is gone: some worker took it, or the rescue will', () => {
    for (const state of ['active', 'completed', 'failed', 'unknown'])
      expect(stuck(job({ state }), limits), state).toBe(false);
    expect(stuck({ ...wedged, job: undefined }, limits)).toBe(false);
  });

  it('is false for a delayed job waiting for its retry: it was taken, so it tells nothing of the workers', () => {
    expect(stuck(job({ state: 'delayed', attemptsMade: 1 }), limits)).toBe(false);
  });

  it('is false when no worker runs here (not started, or stopping)', () => {
    expect(stuck({ ...wedged, idleMs: undefined }, limits)).toBe(false);
  });

  it('follows the settings given', () => {
    const quick = { rescueAfterMs: 100, stuckAfterMs: 200 };
    const signs: Signs = {
      overdueMs: 301,
      job: { state: 'waiting', attemptsMade: 0, dueForMs: 201 },
      idleMs: 201,
    };
    expect(stuck(signs, quick)).toBe(true);
    expect(stuck(signs, limits)).toBe(false);
  });
});

describe('TimeoutWatch', () => {
  it('looks every watchEveryMs of its clock, and no more once stopped', async () => {
    const clock = steppedClock();
    const prefix = uniquePrefix();
    const worker = { idleMs: () => undefined, restart: () => Promise.resolve() };
    const queue = new Queue(TIMEOUT_QUEUE, { connection: rawRedis(), prefix: keys(prefix).bullPrefix });
    const deps = { cmd: withScripts(rawRedis()), keys: keys(prefix), queue, worker, clock };
    const watch = new TimeoutWatch({ ...deps, logger: recordingLogger() }, { watchEveryMs: 1_000 });
    watch.start();
    expect(clock.pending()).toBe(1);
    await watch.stop();
    expect(clock.pending()).toBe(0);
    await queue.close();
  });

  it('restarts a stuck worker at each look that finds it stuck, with a warn line at most every 5 min', async () => {
    const clock = steppedClock();
    const prefix = uniquePrefix();
    const k = keys(prefix);
    const store = await openStore(prefix, 'holder-watch');
    const redis = rawRedis();
    // No timeouts are started: the question's slot job stays delayed past its time, as with a worker taking none.
    const q = await store.create(newQuestion({ timeoutMs: 50 }));
    const settings = { rescueAfterMs: 100, stuckAfterMs: 100 };
    await until('the question is late beyond rescueAfterMs + stuckAfterMs', 10_000, async () => {
      return (await redisTimeMs(redis)) > q.deadline + 250;
    });
    let takenAt = clock.now();
    const worker = {
      idleMs: () => clock.now() - takenAt,
      restart: () => {
        takenAt = clock.now();
        return Promise.resolve();
      },
    };
    const queue = new Queue(TIMEOUT_QUEUE, { connection: rawRedis(), prefix: k.bullPrefix });
    const logger = recordingLogger();
    const watch = new TimeoutWatch(
      { cmd: withScripts(redis), keys: k, queue, worker, clock, logger },
      settings,
    );
    const lines = () => logger.logged.map((l) => `${l.level} ${l.msg}`);

    expect(await watch.once()).toBe(false); // idle 0 ms: it has just been made
    await clock.advance(101);
    expect(await watch.once()).toBe(true);
    expect(await watch.once()).toBe(false); // just restarted
    await clock.advance(60_000);
    expect(await watch.once()).toBe(true);
    expect(lines()).toEqual(['warn timeout worker took no job; restarted it']);
    await clock.advance(240_000);
    expect(await watch.once()).toBe(true);
    expect(lines()).toHaveLength(2);
    expect(logger.logged[1]?.obj).toMatchObject({ count: 3, sinceLastLine: 2 });

    await store.finish(q.id, { action: 'cancel' }, 'timed_out');
    await clock.advance(101);
    expect(await watch.once()).toBe(false);
    expect(lines().at(-1)).toBe('info the timeout worker takes jobs again');
    await queue.close();
  });
});
