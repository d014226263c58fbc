// Timing and summary helpers shared by every benchmark: hrtime samples in µs, percentiles, the result rows.

/** One row of the results table. Latencies in µs unless `unit` says otherwise. */
export interface Row {
  group: string;
  name: string;
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Operations per second when run one at a time (n / total wall time). */
  opsPerSec?: number;
  /** `p50` divided by the floor's p50 measured in the same run. */
  xFloor?: number;
  unit?: 'µs' | 'ms' | 'bytes' | 'cmds';
  note?: string;
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  min: number;
}

export const nowUs = (): number => Number(process.hrtime.bigint()) / 1000;

/** Nearest-rank percentile of sorted values. */
function rank(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: rank(sorted, 50),
    p95: rank(sorted, 95),
    p99: rank(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    min: sorted[0] ?? Number.NaN,
  };
}

/**
 * Runs `op` `warmup` times unmeasured, then `n` times one at a time, and returns per-call latencies (µs)
 * plus the sequential throughput.
 */
export async function timeSequential(
  n: number,
  warmup: number,
  op: (i: number) => Promise<unknown>,
): Promise<{ samples: number[]; opsPerSec: number }> {
  for (let i = 0; i < warmup; i++) await op(i);
  const samples: number[] = [];
  const start = nowUs();
  for (let i = 0; i < n; i++) {
    const t0 = nowUs();
    await op(warmup + i);
    samples.push(nowUs() - t0);
  }
  return { samples, opsPerSec: (n * 1e6) / (nowUs() - start) };
}

/** Same as timeSequential for synchronous work. */
export function timeSync(
  n: number,
  warmup: number,
  op: (i: number) => unknown,
): { samples: number[]; opsPerSec: number } {
  for (let i = 0; i < warmup; i++) op(i);
  const samples: number[] = [];
  const start = nowUs();
  for (let i = 0; i < n; i++) {
    const t0 = nowUs();
    op(warmup + i);
    samples.push(nowUs() - t0);
  }
  return { samples, opsPerSec: (n * 1e6) / (nowUs() - start) };
}

export function row(
  group: string,
  name: string,
  s: Summary,
  extra: Partial<Pick<Row, 'opsPerSec' | 'unit' | 'note'>> & { floorP50?: number } = {},
): Row {
  const { floorP50, ...rest } = extra;
  return {
    group,
    name,
    n: s.n,
    p50: s.p50,
    p95: s.p95,
    p99: s.p99,
    max: s.max,
    ...rest,
    ...(floorP50 === undefined ? {} : { xFloor: s.p50 / floorP50 }),
  };
}

/**
 * Like timeSequential, but each call of `op` is preceded by one timed call of `floor`, so the floor is sampled
 * under the same machine conditions as the operation (this VM's speed drifts by up to 4× within a run).
 * `pause` runs untimed before each pair (e.g. to stay under a rate limit the operation would otherwise queue on).
 */
export async function timePaired(
  n: number,
  warmup: number,
  floor: () => Promise<unknown>,
  op: (i: number) => Promise<unknown>,
  pause: () => Promise<unknown> = () => Promise.resolve(),
): Promise<{ samples: number[]; floorSamples: number[]; opsPerSec: number }> {
  for (let i = 0; i < warmup; i++) {
    await pause();
    await floor();
    await op(i);
  }
  const samples: number[] = [];
  const floorSamples: number[] = [];
  for (let i = 0; i < n; i++) {
    await pause();
    const t0 = nowUs();
    await floor();
    const t1 = nowUs();
    await op(warmup + i);
    samples.push(nowUs() - t1);
    floorSamples.push(t1 - t0);
  }
  const total = samples.reduce((a, b) => a + b, 0);
  return { samples, floorSamples, opsPerSec: (n * 1e6) / total };
}

/** A row whose `× floor` uses the floor samples interleaved with it; the floor's p50 is shown in the note. */
export function pairedRow(
  group: string,
  name: string,
  t: { samples: number[]; floorSamples: number[]; opsPerSec?: number },
): Row {
  const floorP50 = summarize(t.floorSamples).p50;
  return row(group, name, summarize(t.samples), {
    ...(t.opsPerSec === undefined ? {} : { opsPerSec: t.opsPerSec }),
    floorP50,
    note: `interleaved PING p50 ${floorP50.toFixed(1)} µs`,
  });
}
