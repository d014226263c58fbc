// Whole question lifecycles through the real store: create on the holder, finish on another replica, the
// holder's inbox hands over the outcome. Against an in-memory baseline of the same flow (a Map, a CAS on the
// state, a timer per question, a callback), sequential and 100 at a time; and the Redis commands one
// lifecycle costs (MONITOR), beside the fewest this flow could need.
import { Redis } from 'ioredis';
import type { RedisSetting } from '../src/redis/index.js';
import { QuestionStore } from '../src/store/index.js';
import { rawFlow } from './raw-lifecycle.js';
import { captureScriptCalls, scriptsFlow } from './scripts-lifecycle.js';
import { sampleQuestion, type RedisBenchOptions } from './redis.js';
import { nowUs, row, summarize, timeSequential, type Row } from './stats.js';

/** Lifecycles in flight at once in the concurrent run. */
export const CONCURRENCY = 100;

export interface Flow {
  /** One lifecycle, resolved when the holder has the outcome. */
  cycle(): Promise<void>;
  close(): Promise<void>;
}

/** The lifecycle on Redis at `setting` (default the run's REDIS_URL). */
export async function redisFlow(
  o: RedisBenchOptions,
  setting: RedisSetting = { url: o.url },
  [holderId, answererId] = ['bench-life-a', 'bench-life-b'],
): Promise<Flow> {
  const open = (id: string) =>
    QuestionStore.open({ ...setting, prefix: o.prefix, holderId: id, logger: o.logger });
  const [holder, other] = [await open(holderId), await open(answererId)];
  const waiting = new Map<string, () => void>();
  await holder.startInbox((q) => waiting.get(q.id)?.());
  return {
    cycle: async () => {
      const q = await holder.create(sampleQuestion());
      const delivered = new Promise<void>((resolve) => waiting.set(q.id, resolve));
      await other.finish(q.id, { action: 'accept', content: { name: 'Ada' } }, 'answered');
      await delivered;
      waiting.delete(q.id);
    },
    close: async () => {
      await other.close();
      await holder.close();
    },
  };
}

function memoryFlow(): Flow {
  const questions = new Map<number, { state: string; timer: NodeJS.Timeout }>();
  const waiting = new Map<number, () => void>();
  let next = 0;
  const finish = (id: number, state: string): void => {
    const q = questions.get(id);
    if (q?.state !== 'pending') return;
    q.state = state;
    clearTimeout(q.timer);
    queueMicrotask(() => waiting.get(id)?.());
  };
  return {
    cycle: async () => {
      const id = next++;
      questions.set(id, { state: 'pending', timer: setTimeout(() => finish(id, 'cancelled'), 600_000) });
      const delivered = new Promise<void>((resolve) => waiting.set(id, resolve));
      await Promise.resolve().then(() => finish(id, 'accepted'));
      await delivered;
      waiting.delete(id);
      questions.delete(id);
    },
    close: () => Promise.resolve(),
  };
}

/** `n` lifecycles, `CONCURRENCY` at a time: per-lifecycle latency (µs) and lifecycles per second. */
export async function concurrent(flow: Flow, n: number): Promise<{ samples: number[]; opsPerSec: number }> {
  const samples: number[] = [];
  let started = 0;
  const start = nowUs();
  const worker = async (): Promise<void> => {
    while (started++ < n) {
      const t0 = nowUs();
      await flow.cycle();
      samples.push(nowUs() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { samples, opsPerSec: (n * 1e6) / (nowUs() - start) };
}

export async function lifecycleBench(o: RedisBenchOptions): Promise<Row[]> {
  const memory = memoryFlow();
  const redis = await redisFlow(o);
  const raw = await rawFlow(o.url, o.prefix);
  const scripts = await scriptsFlow(o.url, await captureScriptCalls(o.url, redis, 'bench-life-a'));
  try {
    const n = Math.min(o.n, 2_000);
    const memSeq = await timeSequential(n, 200, () => memory.cycle());
    const redisSeq = await timeSequential(n, 200, () => redis.cycle());
    const rawSeq = await timeSequential(n, 200, () => raw.cycle());
    const memConc = await concurrent(memory, n * 5);
    const redisConc = await concurrent(redis, n * 5);
    const rawConc = await concurrent(raw, n * 5);
    const scriptsConc = await concurrent(scripts, n * 5);
    const memSeqP50 = summarize(memSeq.samples).p50;
    const memConcP50 = summarize(memConc.samples).p50;
    const seqRatio = memSeq.opsPerSec / redisSeq.opsPerSec;
    const concRatio = memConc.opsPerSec / redisConc.opsPerSec;
    return [
      row('lifecycle', 'in-memory baseline, sequential = floor', summarize(memSeq.samples), {
        opsPerSec: memSeq.opsPerSec,
      }),
      row('lifecycle', 'create → finish on B → holder A inbox, sequential', summarize(redisSeq.samples), {
        opsPerSec: redisSeq.opsPerSec,
        floorP50: memSeqP50,
        note: `throughput ${seqRatio.toFixed(0)}× below the baseline`,
      }),
      row('lifecycle', `in-memory baseline, ${CONCURRENCY} concurrent = floor`, summarize(memConc.samples), {
        opsPerSec: memConc.opsPerSec,
      }),
      row('lifecycle', `same lifecycle, ${CONCURRENCY} concurrent`, summarize(redisConc.samples), {
        opsPerSec: redisConc.opsPerSec,
        floorP50: memConcP50,
        note: `throughput ${concRatio.toFixed(0)}× below the baseline`,
      }),
      ...rawRows(rawSeq, rawConc, redisSeq.opsPerSec, redisConc.opsPerSec),
      scriptsRow(scriptsConc, rawConc.opsPerSec, redisConc.opsPerSec),
      await roundTrips(o, redis),
    ];
  } finally {
    await scripts.close();
    await raw.close();
    await redis.close();
    await memory.close();
  }
}

/** The raw-Redis flow's rows (bench/raw-lifecycle.ts), each the floor of the store's row of the same shape. */
function rawRows(
  seq: { samples: number[]; opsPerSec: number },
  conc: { samples: number[]; opsPerSec: number },
  storeSeqOps: number,
  storeConcOps: number,
): Row[] {
  return [
    row(
      'lifecycle',
      'raw Redis flow (record + deadline, CAS + XADD, XREAD), sequential',
      summarize(seq.samples),
      {
        opsPerSec: seq.opsPerSec,
        note: `store's throughput ${(seq.opsPerSec / storeSeqOps).toFixed(2)}× below this`,
      },
    ),
    row('lifecycle', `raw Redis flow, ${CONCURRENCY} concurrent`, summarize(conc.samples), {
      opsPerSec: conc.opsPerSec,
      note: `store's throughput ${(conc.opsPerSec / storeConcOps).toFixed(2)}× below this (goal ≤ 2×)`,
    }),
  ];
}

/** The store's own scripts driven directly (bench/scripts-lifecycle.ts): between the raw flow and the store. */
function scriptsRow(conc: { samples: number[]; opsPerSec: number }, rawOps: number, storeOps: number): Row {
  const name = `the store's own scripts driven directly, ${CONCURRENCY} concurrent`;
  return row('lifecycle', name, summarize(conc.samples), {
    opsPerSec: conc.opsPerSec,
    note:
      `${(rawOps / conc.opsPerSec).toFixed(2)}× below the raw flow (the guarantees' Redis work); ` +
      `the store's throughput ${(conc.opsPerSec / storeOps).toFixed(2)}× below this (its own code)`,
  });
}

/** Addresses (ip:port) of this run's own connections, found by their CLIENT SETNAME prefix. */
async function ownAddresses(probe: Redis, prefix: string): Promise<Set<string>> {
  const list = (await probe.client('LIST')) as string;
  const mine = list.split('\n').filter((line) => new RegExp(`\\bname=${prefix}:`).test(line));
  return new Set(mine.map((line) => /\baddr=(\S+)/.exec(line)?.[1] ?? ''));
}

/**
 * Round trips one lifecycle costs: the commands this run's connections send (MONITOR, Lua-internal commands
 * left out), counted over n sequential lifecycles. The floor is analytical: the fewest round trips this flow
 * can have with the same guarantees (write the record, add the timer, one CAS that also queues the delivery,
 * one read by the holder) = 4.
 */
async function roundTrips(o: RedisBenchOptions, flow: Flow): Promise<Row> {
  const probe = new Redis(o.url);
  const monitor = await probe.monitor();
  try {
    const n = 500;
    await flow.cycle();
    const own = await ownAddresses(probe, o.prefix);
    const counts = new Map<string, number>();
    let commands = 0;
    // MULTI ... EXEC is one round trip (ioredis pipelines it): only MULTI counts for the whole block.
    const inMulti = new Set<string>();
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (!own.has(source)) return;
      commands++;
      const name = (args[0] ?? '?').toLowerCase();
      if (name === 'exec') inMulti.delete(source);
      if (inMulti.has(source) || name === 'exec') return;
      if (name === 'multi') inMulti.add(source);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    });
    for (let i = 0; i < n; i++) await flow.cycle();
    // MONITOR lines trail the commands; one more PING through the monitor's server marks the end.
    await probe.ping();
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const top = [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([name, c]) => `${name} ${(c / n).toFixed(2)}`)
      .join(', ');
    const perCycle = total / n;
    const s = { n, p50: perCycle, p95: Number.NaN, p99: Number.NaN, max: Number.NaN, min: perCycle };
    return row(
      'lifecycle',
      'Redis round trips per lifecycle (MONITOR, own connections; MULTI block = 1)',
      s,
      {
        unit: 'cmds',
        floorP50: FLOOR_ROUND_TRIPS,
        note: `floor ${FLOOR_ROUND_TRIPS} (record, timer, CAS + delivery, read); ${(commands / n).toFixed(1)} commands; ${top}`,
      },
    );
  } finally {
    monitor.disconnect();
    probe.disconnect();
  }
}

/** See roundTrips. */
const FLOOR_ROUND_TRIPS = 4;
