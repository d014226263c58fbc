// Issue #19 goal 5b: a holder's RSS growth per in-flight question, at 10,000 in flight (BENCH_HOLDER_RSS). The
// holder is a child process (this file, `node --import tsx`), so the figure is its own: a QuestionStore with
// its inbox, timeout worker and lease, creating N questions (10-minute timeout, 50 at a time) and keeping one
// waiter per question for its outcome, as the relay does. The floor is the same process shape without the
// store: one HSET per question on a plain ioredis client and the same waiter. RSS and heap are read before and
// after the N creates once full GCs give nothing more back (`released`: RSS after a single full GC still
// counts ~18 MB of old-space pages the creates' garbage left, already free, given back to the OS by the next
// two GCs). The store runs again with 2N, so the per-question slope and the fixed step show apart. The
// questions stay pending (the run's prefix is deleted at the end).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { defaultLogger } from '../src/redis/index.js';
import { QuestionStore } from '../src/store/index.js';
import { pool } from './burst.js';
import { released } from './memory.js';
import { sampleQuestion, type RedisBenchOptions } from './redis.js';
import type { Row } from './stats.js';

const SELF = fileURLToPath(import.meta.url);
/** Creations in flight while filling the holder. */
const CREATE_CONCURRENCY = 50;

type Mode = 'store' | 'floor';

/** What the child prints: bytes, before and after the N creates. */
interface ChildReport {
  rssBefore: number;
  rssAfter: number;
  rssAfterOneGc: number;
  heapBefore: number;
  heapAfter: number;
}

interface Growth {
  count: number;
  /** RSS growth, bytes, once full GCs give nothing more back. */
  rss: number;
  /** RSS growth, bytes, after a single full GC (what this bench reported before). */
  rssOneGc: number;
  heap: number;
  rssBefore: number;
}

async function measure(o: RedisBenchOptions, mode: Mode, count: number): Promise<Growth> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF], {
    env: {
      ...process.env,
      RSS_URL: o.url,
      RSS_PREFIX: `${o.prefix}:rss-${mode}-${count}`,
      RSS_MODE: mode,
      RSS_COUNT: String(count),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const line = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  await exited;
  const r = JSON.parse(String(line.value)) as ChildReport;
  return {
    count,
    rss: r.rssAfter - r.rssBefore,
    rssOneGc: r.rssAfterOneGc - r.rssBefore,
    heap: r.heapAfter - r.heapBefore,
    rssBefore: r.rssBefore,
  };
}

const memoryRow = (name: string, n: number, bytes: number, note: string): Row => ({
  group: 'memory',
  name,
  n,
  p50: Math.round(bytes),
  p95: Number.NaN,
  p99: Number.NaN,
  max: Number.NaN,
  unit: 'bytes',
  note,
});

const perQuestion = (g: Growth) =>
  `heap ${Math.round(g.heap / g.count)} B per question; RSS before ${Math.round(g.rssBefore / 2 ** 20)} MB; ` +
  `after a single full GC ${Math.round(g.rssOneGc / g.count)} B per question`;

export async function holderRssBench(o: RedisBenchOptions, count: number): Promise<Row[]> {
  const floor = await measure(o, 'floor', count);
  const store = await measure(o, 'store', count);
  const twice = await measure(o, 'store', 2 * count);
  // Growth = step + slope × N, from N and 2N in the same run.
  const slope = (twice.rss - store.rss) / count;
  const step = store.rss - slope * count;
  return [
    memoryRow(
      `floor: RSS per in-flight question, ${count} (HSET + waiter)`,
      count,
      floor.rss / count,
      perQuestion(floor),
    ),
    memoryRow(
      `holder RSS per in-flight question, ${count} (QuestionStore + waiter)`,
      count,
      store.rss / count,
      `${perQuestion(store)}. Goal ≤ 2,048 B`,
    ),
    memoryRow(
      `holder RSS per in-flight question, ${2 * count} (QuestionStore + waiter)`,
      2 * count,
      twice.rss / (2 * count),
      perQuestion(twice),
    ),
    memoryRow(
      `holder RSS slope per question, ${count} → ${2 * count}`,
      count,
      slope,
      `fixed step ${(step / 2 ** 20).toFixed(1)} MB (growth at ${count} minus slope × ${count}); RSS moves by ~1-2 MB between runs`,
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
  const before = released();
  await pool(count, CREATE_CONCURRENCY, async () => {
    const q = await store.create(sampleQuestion());
    void new Promise<void>((resolve) => waiters.set(q.id, resolve));
  });
  return { before, close: () => store.close() };
}

/** The floor: the same waiters, one HSET per question on a plain client. */
async function fillFloor(url: string, prefix: string, count: number, waiters: Map<string, () => void>) {
  const redis = new Redis(url);
  const before = released();
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
  const after = released();
  const out: ChildReport = {
    rssBefore: before.rss,
    rssAfter: after.rss,
    rssAfterOneGc: after.rssAfterOneGc,
    heapBefore: before.heap,
    heapAfter: after.heap,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  await close();
  process.exit(0);
}

if (process.env.RSS_MODE !== undefined) await child();
