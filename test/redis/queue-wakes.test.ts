import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { QueueWakes, WAKE_AFTER_MS, keys, markerWake } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { steppedClock } from '../support/stepped-clock.js';
import { until } from '../support/until.js';
import { recordingLogger } from '../store/helpers.js';

/** QueueWakes on a stepped clock at 1,000 ms, counting its wakes. */
function wakesAt1000(wake: () => Promise<unknown> = () => Promise.resolve()) {
  const clock = steppedClock();
  const logger = recordingLogger();
  let woken = 0;
  const counted = () => {
    woken += 1;
    return wake();
  };
  const now = () => clock.now() + 1_000;
  const wakes = new QueueWakes({ wake: counted, schedule: clock.schedule, logger, queue: 'q', now });
  return { clock, logger, wakes, woken: () => woken };
}

describe('QueueWakes', () => {
  it('wakes a worker once a delayed job is due, just after its time and not before', async () => {
    const { clock, wakes, woken } = wakesAt1000();
    wakes.at(1_500);
    await clock.advance(500 + WAKE_AFTER_MS - 1);
    expect(woken()).toBe(0);
    await clock.advance(1);
    expect(woken()).toBe(1);
    await clock.advance(10_000);
    expect(woken()).toBe(1);
  });

  it('wakes once for jobs due in the same millisecond, and once for each other time', async () => {
    const { clock, wakes, woken } = wakesAt1000();
    for (const dueAt of [1_200, 1_200, 1_200, 1_700]) wakes.at(dueAt);
    expect(clock.pending()).toBe(2);
    await clock.advance(1_000);
    expect(woken()).toBe(2);
  });

  it('wakes at once for a job whose time has already passed', async () => {
    const { clock, wakes, woken } = wakesAt1000();
    wakes.at(400);
    await clock.advance(WAKE_AFTER_MS);
    expect(woken()).toBe(1);
  });

  it('logs a wake Redis refused instead of failing: BullMQ still takes the job at its own time', async () => {
    const { clock, logger, wakes } = wakesAt1000(() => Promise.reject(new Error('connection lost')));
    wakes.at(1_100);
    await clock.advance(200);
    expect(logger.logged.map((l) => l.level)).toEqual(['warn']);
  });

  it('puts a held job back and moves a delayed one, waking a worker at the time each is due', async () => {
    const { clock, wakes, woken } = wakesAt1000();
    const calls: string[] = [];
    const job = {
      moveToDelayed: (at: number, token?: string) => Promise.resolve(void calls.push(`back ${at} ${token}`)),
      changeDelay: (ms: number) => Promise.resolve(void calls.push(`move ${ms}`)),
    };
    await wakes.putBack(job, 1_300, 'token-1');
    await wakes.move(job, 600);
    expect(calls).toEqual(['back 1300 token-1', 'move 600']);
    await clock.advance(300 + WAKE_AFTER_MS);
    expect(woken()).toBe(1);
    await clock.advance(300);
    expect(woken()).toBe(2);
  });

  it('wakes no worker for a move Redis refused', async () => {
    const { clock, wakes } = wakesAt1000();
    const job = { changeDelay: () => Promise.reject(new Error('job not delayed')) };
    await expect(wakes.move(job, 100)).rejects.toThrow('job not delayed');
    expect(clock.pending()).toBe(0);
  });

  it('cancels its pending wakes when closed and takes no more', async () => {
    const { clock, wakes, woken } = wakesAt1000();
    wakes.at(1_100);
    wakes.close();
    wakes.at(1_200);
    expect(clock.pending()).toBe(0);
    await clock.advance(1_000);
    expect(woken()).toBe(0);
  });
});

describe('markerWake', () => {
  const opened: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const part of opened.splice(0).reverse()) await part.close();
  });

  it('writes the marker key a BullMQ worker of the queue pops: the worker takes it as soon as it runs', async () => {
    const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
    opened.push({ close: () => connection.quit() });
    const prefix = keys(uniquePrefix()).bullPrefix;
    const queue = new Queue('wakes', { connection, prefix });
    opened.push(queue);
    const marker = queue.toKey('marker');
    await markerWake(queue, connection)();
    expect(await connection.zscore(marker, '0')).toBe('0');
    // An idle worker with no delayed job blocks on the marker for drainDelay (60 s here) between looks.
    const worker = new Worker('wakes', () => Promise.resolve(), { connection, prefix, drainDelay: 60 });
    opened.push(worker);
    await until('the worker took the marker', 5_000, async () => (await connection.zcard(marker)) === 0);
  });
});
