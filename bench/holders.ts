// Issue #19 goal 3's scaling check: the lifecycle of bench/lifecycle.ts, CONCURRENCY at a time, in one holder
// process, then in three holder processes at once (each its own holder and answerer stores, same Redis and
// prefix), as aggregate lifecycles per second. Each process is this file run as a child (`node --import tsx`),
// started and connected before the timed part; the parent says "go" on stdin and reads one JSON line back.
// Goal 3c: each row also gives the CPU each holder process used (process.cpuUsage over its timed part) and
// Redis's (INFO cpu, used_cpu_user + used_cpu_sys, over the same wall time), as % of one core, beside the
// machine's core count: three holders can only be 2× one if one holder leaves the cores room for more. Redis's
// figure counts every client of that Redis, so it is the flow's own only on an otherwise idle Redis.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { defaultLogger } from '../src/redis/index.js';
import { concurrent, redisFlow } from './lifecycle.js';
import { row, type Row } from './stats.js';
import type { RedisBenchOptions } from './redis.js';

const SELF = fileURLToPath(import.meta.url);
/** Lifecycles each holder process runs before it says it is ready. */
const WARMUP = 2_000;

interface HolderResult {
  n: number;
  ms: number;
  /** CPU time (user + system) the process used during its timed part, ms. */
  cpuMs: number;
}

interface HoldersRun {
  /** Aggregate lifecycles per second. */
  opsPerSec: number;
  /** Each holder process's CPU over its timed part, % of one core. */
  holderCpu: number[];
  /** Redis's CPU over the run's wall time, % of one core. */
  redisCpu: number;
  /** CPU per lifecycle, µs: the holders' summed, and Redis's. */
  holderUs: number;
  redisUs: number;
}

/** Redis's CPU time so far (INFO cpu: used_cpu_user + used_cpu_sys), ms. */
async function redisCpuMs(probe: Redis): Promise<number> {
  const info = await probe.info('cpu');
  const seconds = (field: string) => Number(new RegExp(`^${field}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000;
}

/** Starts `count` holder processes, each running `n` lifecycles once all are connected. */
async function runHolders(o: RedisBenchOptions, count: number, n: number, probe: Redis): Promise<HoldersRun> {
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
  const redisBefore = await redisCpuMs(probe);
  const start = performance.now();
  for (const child of children) child.stdin.write('go\n');
  const results = await Promise.all(
    lines.map(async (it) => JSON.parse(String((await it.next()).value)) as HolderResult),
  );
  const wallMs = performance.now() - start;
  const redisMs = (await redisCpuMs(probe)) - redisBefore;
  await Promise.all(exits);
  const lifecycles = results.reduce((sum, r) => sum + r.n, 0);
  return {
    opsPerSec: (lifecycles * 1000) / wallMs,
    holderCpu: results.map((r) => (100 * r.cpuMs) / r.ms),
    redisCpu: (100 * redisMs) / wallMs,
    holderUs: (results.reduce((sum, r) => sum + r.cpuMs, 0) * 1000) / lifecycles,
    redisUs: (redisMs * 1000) / lifecycles,
  };
}

/**
 * E.g. "CPU in % of one core: holders 97% + 95% + 96% = 288%, Redis 41%; 2 cores; per lifecycle: holders
 * 110 µs, Redis 45 µs".
 */
function cpuNote(run: HoldersRun): string {
  const pct = (x: number) => `${x.toFixed(0)}%`;
  const who = run.holderCpu.length > 1 ? 'holders' : 'holder';
  const sum = run.holderCpu.reduce((a, b) => a + b, 0);
  const holders = run.holderCpu.map(pct).join(' + ') + (run.holderCpu.length > 1 ? ` = ${pct(sum)}` : '');
  const shares = `CPU in % of one core: ${who} ${holders}, Redis ${pct(run.redisCpu)}; ${cpus().length} cores`;
  return `${shares}; per lifecycle: ${who} ${run.holderUs.toFixed(0)} µs, Redis ${run.redisUs.toFixed(0)} µs`;
}

/** One holder process against three at once, each running `n` lifecycles, CONCURRENCY at a time. */
export async function holdersBench(o: RedisBenchOptions): Promise<Row[]> {
  const n = Math.min(o.n * 5, 10_000);
  const probe = new Redis(o.url);
  let one: HoldersRun;
  let three: HoldersRun;
  try {
    one = await runHolders(o, 1, n, probe);
    three = await runHolders(o, 3, n, probe);
  } finally {
    probe.disconnect();
  }
  // Throughput rows: no latency percentiles, the aggregate lifecycles per second in the ops/s column.
  const s = { n, p50: Number.NaN, p95: Number.NaN, p99: Number.NaN, max: Number.NaN, min: Number.NaN };
  return [
    row('lifecycle', 'one holder process, 100 concurrent = floor', s, {
      opsPerSec: one.opsPerSec,
      note: cpuNote(one),
    }),
    row('lifecycle', 'three holder processes at once, 100 concurrent each', s, {
      opsPerSec: three.opsPerSec,
      note: `aggregate ${(three.opsPerSec / one.opsPerSec).toFixed(2)}× one holder (goal ≥ 2×); ${cpuNote(three)}`,
    }),
  ];
}

async function child(): Promise<void> {
  const env = process.env;
  const o = { url: env.HOLDER_URL ?? '', prefix: env.HOLDER_PREFIX ?? '', n: 0, logger: defaultLogger };
  const name = env.HOLDER_NAME ?? 'h';
  const flow = await redisFlow(o, { url: o.url }, [`bench-${name}-holder`, `bench-${name}-answerer`]);
  // Untimed first, as the lifecycle step's timed runs come after others: the timed part is the steady state,
  // not the JIT compiling the flow's code (which made a holder's CPU per lifecycle look ~1.7x higher).
  await concurrent(flow, WARMUP);
  const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  process.stdout.write('ready\n');
  await input.next();
  const n = Number(env.HOLDER_N);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await concurrent(flow, n);
  const { user, system } = process.cpuUsage(cpuStart);
  const result: HolderResult = { n, ms: performance.now() - start, cpuMs: (user + system) / 1000 };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await flow.close();
  process.exit(0);
}

if (process.env.HOLDER_URL !== undefined) await child();
