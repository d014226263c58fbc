// A replica's timeout worker that looks alive but takes no job (wedged here through BullMQ's own pause, as a
// blocking connect() that never settled left it in 63a8c74): the question due meanwhile stayed pending for good.
// The replica's watch (store/timeout-watch.ts) sees the question late, its slot's job due and untaken and its
// worker idle, closes that worker and makes a new one, which times the question out once, not before its
// deadline; a question asked after times out too.
import { afterEach, describe, expect, it } from 'vitest';
import { TIMEOUT_QUEUE, endClient } from '../../src/redis/index.js';
import { systemClock } from '../../src/clock.js';
import { openStoreParts, type StoreParts } from '../../src/store/open.js';
import { TimerWork } from '../../src/store/timer-work.js';
import { finishQuestion, writeQuestion, type Finisher } from '../../src/store/transitions.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deferred } from '../support/deferred.js';
import { until } from '../support/until.js';
import { collector, newQuestion, recordingLogger } from './helpers.js';

/** Longest a step may take on a loaded CI machine, ms: the watch looks every 100 ms once 300 ms have passed. */
const STEP_WITHIN_MS = 10_000;
const SETTINGS = { watchEveryMs: 100, stuckAfterMs: 300, rescueAfterMs: 300, rescueEveryMs: 600_000 };

const opened: { parts: StoreParts; work: TimerWork }[] = [];
afterEach(async () => {
  for (const { parts, work } of opened.splice(0)) {
    await work.stop(false);
    await work.closeQueues();
    await endClient(parts.queueConnection, true);
    await endClient(parts.cmd, true);
  }
});

/** A replica's store parts and timer work (the watch included), timing out through the finish script. */
async function replica(): Promise<{
  parts: StoreParts;
  work: TimerWork;
  logger: ReturnType<typeof recordingLogger>;
}> {
  const logger = recordingLogger();
  const parts = await openStoreParts({ url: redisUrl(), prefix: uniquePrefix(), holderId: 'h1', logger });
  const work = new TimerWork({ ...parts, settings: SETTINGS, clock: systemClock });
  opened.push({ parts, work });
  return { parts, work, logger };
}

describe('a timeout worker that takes no job', () => {
  it('is restarted by its replica, and the due question times out once, not early', async () => {
    const { parts, work, logger } = await replica();
    const timedOut = collector<{ id: string; won: boolean }>();
    await work.startTimeouts(async (id) => {
      const finisher: Finisher = { reason: 'timed_out', timeoutJobHere: work.runningHere.has(id) };
      const result = await finishQuestion(parts, id, { action: 'cancel' }, finisher);
      timedOut.push({ id, won: result.won });
    });
    const wedged = work.timers.worker(TIMEOUT_QUEUE);
    await wedged?.pause(true);

    const due = await writeQuestion(parts, newQuestion({ timeoutMs: 200 }), {});
    await until('the due question timed out', STEP_WITHIN_MS, () =>
      Promise.resolve(timedOut.values.length === 1),
    );
    const after = await writeQuestion(parts, newQuestion({ timeoutMs: 200 }), {});
    await until('the question asked after timed out', STEP_WITHIN_MS, () =>
      Promise.resolve(timedOut.values.length === 2),
    );

    expect(timedOut.values).toEqual([
      { id: due.id, won: true },
      { id: after.id, won: true },
    ]);
    const endedAt = Number(await parts.cmd.hget(parts.keys.question(due.id), 'endedAt'));
    expect(endedAt).toBeGreaterThanOrEqual(due.deadline);
    expect(work.timers.worker(TIMEOUT_QUEUE)).not.toBe(wedged);
    const restarts = logger.logged.filter((l) => l.msg === 'timeout worker took no job; restarted it');
    expect(restarts.map((l) => l.level)).toEqual(['warn']);
  });
});

describe('a timeout worker busy with a long job', () => {
  it('counts as idle only from when its jobs ended, however long ago it took them', async () => {
    let now = 1_000;
    const clock = { now: () => now, schedule: systemClock.schedule };
    const parts = await openStoreParts({ url: redisUrl(), prefix: uniquePrefix(), holderId: 'h1' });
    const work = new TimerWork({ ...parts, settings: SETTINGS, clock });
    opened.push({ parts, work });
    const release = deferred<undefined>();
    const started = deferred<undefined>();
    await work.startTimeouts(async () => {
      started.resolve(undefined);
      await release.promise;
    });
    await writeQuestion(parts, newQuestion({ timeoutMs: 100 }), {});
    await started.promise;
    // An hour into its job (a slot handing over a backlog), the worker is busy, not stuck.
    now += 3_600_000;
    expect(work.timers.idleMs(TIMEOUT_QUEUE)).toBe(0);
    release.resolve(undefined);
    // Idle from the job's end on: each look a millisecond later reads it 0 while the job still runs.
    await until('the worker is idle again', STEP_WITHIN_MS, () => {
      now += 1;
      return Promise.resolve((work.timers.idleMs(TIMEOUT_QUEUE) ?? 0) > 0);
    });
    const idle = work.timers.idleMs(TIMEOUT_QUEUE) ?? 0;
    now += 1_000;
    expect(work.timers.idleMs(TIMEOUT_QUEUE)).toBe(idle + 1_000);
    expect(idle).toBeLessThan(STEP_WITHIN_MS);
  });
});
