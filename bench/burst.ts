// A burst: N questions (default 10 000) whose timeouts all fall due at the same moment, fired by one store's
// BullMQ worker: the job of their 60 s deadline slot (src/store/slots.ts) hands them over 20 at a time, in the
// order they were created (src/store/ids.ts). Lateness = when onDue runs minus the deadline (Redis TIME, same host). The
// floor is the work the worker cannot avoid: finishing the same number of questions directly, 20 at a time,
// timed once before the burst and once after, and averaged. Both come after an untimed warm-up run: timed cold,
// the run before the burst took 378–402 ms for 10,000 against 267–298 ms after it (the finish path not yet
// compiled), which made the floor look slower than the work the burst does warm.
import { QuestionStore } from '../src/store/index.js';
import { sampleQuestion, type RedisBenchOptions } from './redis.js';
import { row, summarize, type Row } from './stats.js';

/** Timer worker concurrency (src/store/timers.ts) and the floor's. */
const WORKER_CONCURRENCY = 20;
/** Untimed finishes before the floor is timed, so it is timed warm. */
const WARM_UP_FINISHES = 2_000;
/**
 * An untimed burst before the timed one, so the timeout path is timed warm, as in a bot that has run a while: the
 * first burst of a process ran its first ~100 ms at half the rate (each finish ~1.1 ms against ~0.5 ms later,
 * with 20 in flight throughout: V8 still compiling the slot job's path). The spread between runs stays (1.2–1.5×
 * the floor over 16 runs with it, 1.2–1.55× over 12 without).
 */
const WARM_UP_BURST = 2_000;
/** Creations in flight while filling the store. */
const CREATE_CONCURRENCY = 50;

export async function pool(n: number, concurrency: number, op: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) await op(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export async function burstBench(o: RedisBenchOptions & { count: number }): Promise<Row[]> {
  const store = await QuestionStore.open({
    url: o.url,
    prefix: o.prefix,
    holderId: 'bench-burst',
    logger: o.logger,
  });
  try {
    await directFinishes(store, WARM_UP_FINISHES);
    const floorBefore = await directFinishes(store, o.count);
    const bursts = await startBursts(store);
    await bursts.run(WARM_UP_BURST);
    const s = summarize(await bursts.run(o.count));
    const floorAfter = await directFinishes(store, o.count);
    const floorMs = (floorBefore + floorAfter) / 2;
    return [
      row(
        'timeouts',
        `floor: ${o.count} finishes run directly, ${WORKER_CONCURRENCY} at a time (total)`,
        summary1(floorMs),
        {
          unit: 'ms',
          note: `mean of a run before the burst (${floorBefore} ms) and one after (${floorAfter} ms)`,
        },
      ),
      row('timeouts', `burst: ${o.count} timeouts due at the same ms, lateness`, s, {
        unit: 'ms',
        note:
          `after an untimed burst of ${WARM_UP_BURST}; first ${s.min} ms; last fired ${s.max} ms after the ` +
          `deadline = ${(s.max / floorMs).toFixed(2)}× the floor`,
      }),
    ];
  } finally {
    await store.close();
  }
}

/** The store's timeout worker, taking one burst at a time: `run(count)` resolves with each one's lateness (ms). */
async function startBursts(store: QuestionStore): Promise<{ run(count: number): Promise<number[]> }> {
  let burst:
    { count: number; deadlines: Map<string, number>; lateness: number[]; fired: () => void } | undefined;
  await store.startTimeouts(async (id) => {
    const b = burst;
    if (b === undefined) return;
    // A question handed over again (timeouts are at least once; finish ends it once) counts its first time only.
    const deadline = b.deadlines.get(id);
    if (deadline !== undefined) b.lateness.push(Date.now() - deadline);
    b.deadlines.delete(id);
    await store.finish(id, { action: 'cancel' }, 'timed_out');
    if (b.lateness.length === b.count && deadline !== undefined) b.fired();
  });
  return {
    run: async (count) => {
      const fired = new Promise<void>((resolve) => {
        burst = { count, deadlines: new Map(), lateness: [], fired: resolve };
      });
      const { deadlines, lateness } = burst ?? { deadlines: new Map<string, number>(), lateness: [] };
      // Every deadline is the same instant, far enough ahead to create them all first (≥ 2 000 creates/s).
      const due = Date.now() + 2_000 + count / 2;
      await pool(count, CREATE_CONCURRENCY, async () => {
        const q = await store.create(sampleQuestion(due - Date.now()));
        deadlines.set(q.id, q.deadline);
      });
      await fired;
      return lateness;
    },
  };
}

function summary1(ms: number) {
  return { n: 1, p50: ms, p95: ms, p99: ms, max: ms, min: ms };
}

/** Creates `count` questions, then times finishing them all, WORKER_CONCURRENCY at a time; returns ms. */
async function directFinishes(store: QuestionStore, count: number): Promise<number> {
  const ids: string[] = [];
  await pool(count, CREATE_CONCURRENCY, async () => {
    ids.push((await store.create(sampleQuestion())).id);
  });
  const t0 = Date.now();
  await pool(count, WORKER_CONCURRENCY, async (i) => {
    await store.finish(ids[i] ?? '', { action: 'cancel' }, 'timed_out');
  });
  return Date.now() - t0;
}
