// Issue #19 goal 5b: a holder's RSS growth per in-flight question, at 10,000 in flight (BENCH_HOLDER_RSS). The
// holder is a child process (this file, `node --import tsx`), so the figure is its own: a QuestionStore with
// its inbox, timeout worker and lease, creating N questions (10-minute timeout, 50 at a time) and keeping one
// waiter per question for its outcome, as the relay does. The floor is the same process shape without the
// store: one HSET per question on a plain ioredis client and the same waiter. RSS and heap are read after a
// full GC, before and after the N creates; the questions stay pending (the run's prefix is deleted at the end).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { defaultLogger } from '../src/redis/index.js';
import { QuestionStore } from '../src/store/index.js';
import { pool } from './burst.js';
import { settled } from './memory.js';
import { sampleQuestion, type RedisBenchOptions } from './redis.js';
import type { Row } from './stats.js';

const SELF = fileURLToPath(import.meta.url);
/** Creations in flight while filling the holder. */
const CREATE_CONCURRENCY = 50;

type Mode = 'store' | 'floor';

interface Growth {
  rssPerQuestion: number;
  heapPerQuestion: number;
  rssBefore: number;
}

async function measure(o: RedisBenchOptions, mode: Mode, count: number): Promise<Growth> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF], {
    env: {
      ...process.env,
      RSS_URL: o.url,
      RSS_PREFIX: `${o.prefix}:rss-${mode}`,
      RSS_MODE: mode,
      RSS_COUNT: String(count),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const line = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  await exited;
  const growth = JSON.parse(String(line.value)) as Omit<Growth, 'rssPerQuestion' | 'heapPerQuestion'> & {
    rssAfter: number;
    heapBefore: number;
    heapAfter: number;
  };
  return {
    rssPerQuestion: (growth.rssAfter - growth.rssBefore) / count,
    heapPerQuestion: (growth.heapAfter - growth.heapBefore) / count,
    rssBefore: growth.rssBefore,
  };
}

export async function holderRssBench(o: RedisBenchOptions, count: number): Promise<Row[]> {
  const floor = await measure(o, 'floor', count);
  const store = await measure(o, 'store', count);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
  const memoryRow = (name: string, g: Growth, note: string): Row => ({
    group: 'memory',
    name,
    n: count,
    p50: Math.round(g.rssPerQuestion),
    p95: Number.NaN,
    p99: Number.NaN,
    max: Number.NaN,
    unit: 'bytes',
    note: `heap ${Math.round(g.heapPerQuestion)} B per question; RSS before ${Math.round(g.rssBefore / 2 ** 20)} MB. ${note}`,
  });
  return [
    memoryRow(`floor: RSS per in-flight question, ${count} (HSET + waiter)`, floor, ''),
    memoryRow(
      `holder RSS per in-flight question, ${count} (QuestionStore + waiter)`,
      store,
      `${kb(store.rssPerQuestion)} (goal ≤ 2 KB); the floor's RSS growth, ${Math.round(floor.rssPerQuestion)} B, is within RSS's noise`,
    ),
  ];
}

/** Fills the holder with `count` in-flight questions through the store, each with a waiter for its outcome. */
async function fillStore(url: string, prefix: string, count: number, waiters: Map<string, () => void>) {
  const store = await QuestionStore.open({ url, prefix, holderId: 'bench-rss', logger: defaultLogger });
  await store.startLease();
  await store.startInbox((q) => waiters.get(q.id)?.());
  await store.startTimeouts(async (id) => {
    await store.finish(id, { action: 'cancel' }, 'timed_out');
  });
  const before = settled();
  await pool(count, CREATE_CONCURRENCY, async () => {
    const q = await store.create(sampleQuestion());
    void new Promise<void>((resolve) => waiters.set(q.id, resolve));
  });
  return { before, close: () => store.close() };
}

/** The floor: the same waiters, one HSET per question on a plain client. */
async function fillFloor(url: string, prefix: string, count: number, waiters: Map<string, () => void>) {
  const redis = new Redis(url);
  const before = settled();
  await pool(count, CREATE_CONCURRENCY, async (i) => {
    const id = `q${i}`;
    await redis.hset(`${prefix}:${id}`, { state: 'pending', message: 'Benchmark question' });
    void new Promise<void>((resolve) => waiters.set(id, resolve));
  });
  return { before, close: () => Promise.resolve(redis.disconnect()) };
}

async function child(): Promise<void> {
  const env = process.env;
  const [url, prefix, count] = [env.RSS_URL ?? '', env.RSS_PREFIX ?? '', Number(env.RSS_COUNT)];
  const waiters = new Map<string, () => void>();
  const fill = env.RSS_MODE === 'store' ? fillStore : fillFloor;
  const { before, close } = await fill(url, prefix, count, waiters);
  const after = settled();
  const out = { rssBefore: before.rss, rssAfter: after.rss, heapBefore: before.heap, heapAfter: after.heap };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  await close();
  process.exit(0);
}

if (process.env.RSS_MODE !== undefined) await child();
