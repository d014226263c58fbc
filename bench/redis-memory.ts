// Redis memory per pending question (issue #19 goal 5): N questions with the 13-field schema created through
// `store.create`, then every key under the run's prefix measured with MEMORY USAGE (SAMPLES 0: every element)
// and summed, ÷ N. The note breaks the sum down by key family, so a change shows where the bytes went.
// With spacingMs > 0 the questions are created one at a time, each that many ms after the previous one started:
// the production rate (a few per minute) is the sparse case, where questions share no deadline slot.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { QuestionStore } from '../src/store/index.js';
import { SCHEMA_13 } from './forms.js';
import { sampleQuestion, usedMemory, type RedisBenchOptions } from './redis.js';
import type { Row } from './stats.js';

/** Creations in flight at once. */
const CONCURRENCY = 20;
/** Pending long enough that none fires during the reading, ms. */
const TIMEOUT_MS = 600_000;

/** A part of a key, with question ids (20 characters), slot numbers and slot job ids (`<slot>.<gen>`) folded. */
const fold = (part: string): string => {
  if (part.length === 20) return '<id>';
  if (/^\d+$/.test(part)) return '<slot>';
  return /^\d+\./.test(part) ? '<slot>.<gen>' : part;
};

/** A key's family: the key under the prefix with its per-question and per-slot parts folded. */
const family = (key: string, prefix: string): string =>
  key
    .slice(prefix.length + 1)
    .split(':')
    .map(fold)
    .join(':');

async function measure(redis: Redis, prefix: string): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    const pipeline = redis.pipeline();
    for (const key of found) pipeline.memory('USAGE', key, 'SAMPLES', 0);
    const sizes = (await pipeline.exec()) ?? [];
    found.forEach((key, i) => {
      const f = family(key, prefix);
      sums.set(f, (sums.get(f) ?? 0) + Number(sizes[i]?.[1] ?? 0));
    });
  } while (cursor !== '0');
  return sums;
}

/** Creates `count` questions, CONCURRENCY at a time, or one every spacingMs (from one start to the next) if > 0. */
async function createAll(store: QuestionStore, count: number, spacingMs: number): Promise<void> {
  const one = () => store.create({ ...sampleQuestion(TIMEOUT_MS), requestedSchema: SCHEMA_13 });
  if (spacingMs > 0) {
    for (let i = 0; i < count; i++) await Promise.all([one(), sleep(spacingMs)]);
    return;
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next++ < count) await one();
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

export async function redisMemoryBench(o: RedisBenchOptions, count: number, spacingMs = 0): Promise<Row[]> {
  const prefix = `${o.prefix}:rmem`;
  const redis = new Redis(o.url);
  const store = await QuestionStore.open({ url: o.url, prefix, holderId: 'bench-m', logger: o.logger });
  try {
    const before = await usedMemory(redis);
    await createAll(store, count, spacingMs);
    const used = (await usedMemory(redis)) - before;
    const sums = await measure(redis, prefix);
    const total = [...sums.values()].reduce((a, b) => a + b, 0);
    const top = [...sums]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([f, bytes]) => `${f} ${Math.round(bytes / count)}`)
      .join(', ');
    const note = `MEMORY USAGE summed ÷ N: ${top}; INFO used_memory delta ÷ N ${Math.round(used / count)}`;
    const nan = Number.NaN;
    return [
      {
        group: 'memory',
        name:
          'Redis per pending question (13-field schema; record, indexes, due index, slot markers and jobs)' +
          (spacingMs > 0 ? `, created one every ${spacingMs} ms` : `, created ${CONCURRENCY} at a time`),
        n: count,
        p50: Math.round(total / count),
        p95: nan,
        p99: nan,
        max: nan,
        unit: 'bytes',
        note,
      },
    ];
  } finally {
    await store.close();
    redis.disconnect();
  }
}
