// Issue #19 goal 3's scaling check: the lifecycle of bench/lifecycle.ts, CONCURRENCY at a time, in one holder
// process, then in three holder processes at once (each its own holder and answerer stores, same Redis and
// prefix), as aggregate lifecycles per second. Each process is this file run as a child (`node --import tsx`),
// started and connected before the timed part; the parent says "go" on stdin and reads one JSON line back.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { defaultLogger } from '../src/redis/index.js';
import { concurrent, redisFlow } from './lifecycle.js';
import { row, type Row } from './stats.js';
import type { RedisBenchOptions } from './redis.js';

const SELF = fileURLToPath(import.meta.url);

interface HolderResult {
  n: number;
  ms: number;
}

/** Starts `count` holder processes, each running `n` lifecycles once all are connected; aggregate ops/s. */
async function runHolders(o: RedisBenchOptions, count: number, n: number): Promise<number> {
  const children = Array.from({ length: count }, (_, i) =>
    spawn(process.execPath, ['--import', 'tsx', SELF], {
      env: {
        ...process.env,
        HOLDER_URL: o.url,
        HOLDER_PREFIX: o.prefix,
        HOLDER_NAME: `h${i}`,
        HOLDER_N: String(n),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  // Taken now: a child exits as soon as it has printed its result.
  const exits = children.map((child) => once(child, 'exit'));
  const lines = children.map((child) => createInterface({ input: child.stdout })[Symbol.asyncIterator]());
  // Each child prints "ready" once connected; then all are told to go at the same moment.
  await Promise.all(lines.map((it) => it.next()));
  const start = performance.now();
  for (const child of children) child.stdin.write('go\n');
  const results = await Promise.all(
    lines.map(async (it) => JSON.parse(String((await it.next()).value)) as HolderResult),
  );
  const wallMs = performance.now() - start;
  await Promise.all(exits);
  return (results.reduce((sum, r) => sum + r.n, 0) * 1000) / wallMs;
}

/** One holder process against three at once, each running `n` lifecycles, CONCURRENCY at a time. */
export async function holdersBench(o: RedisBenchOptions): Promise<Row[]> {
  const n = Math.min(o.n * 5, 10_000);
  const one = await runHolders(o, 1, n);
  const three = await runHolders(o, 3, n);
  // Throughput rows: no latency percentiles, the aggregate lifecycles per second in the ops/s column.
  const s = { n, p50: Number.NaN, p95: Number.NaN, p99: Number.NaN, max: Number.NaN, min: Number.NaN };
  return [
    row('lifecycle', 'one holder process, 100 concurrent = floor', s, { opsPerSec: one }),
    row('lifecycle', 'three holder processes at once, 100 concurrent each', s, {
      opsPerSec: three,
      note: `aggregate ${(three / one).toFixed(2)}× one holder (goal ≥ 2×)`,
    }),
  ];
}

async function child(): Promise<void> {
  const env = process.env;
  const o = { url: env.HOLDER_URL ?? '', prefix: env.HOLDER_PREFIX ?? '', n: 0, logger: defaultLogger };
  const name = env.HOLDER_NAME ?? 'h';
  const flow = await redisFlow(o, { url: o.url }, [`bench-${name}-holder`, `bench-${name}-answerer`]);
  const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  process.stdout.write('ready\n');
  await input.next();
  const n = Number(env.HOLDER_N);
  const start = performance.now();
  await concurrent(flow, n);
  process.stdout.write(`${JSON.stringify({ n, ms: performance.now() - start })}\n`);
  await flow.close();
  process.exit(0);
}

if (process.env.HOLDER_URL !== undefined) await child();
