// Timeout accuracy through the real store: N pending questions whose deadlines are spread over a few seconds,
// fired by the store's BullMQ worker (one job per deadline slot, src/store/slots.ts). Lateness = the moment onDue runs minus the question's deadline.
import { Redis } from 'ioredis';
import type { Question } from '../src/relay/types.js';
import { QuestionStore } from '../src/store/index.js';
import { sampleQuestion, usedMemory, type RedisBenchOptions } from './redis.js';
import { row, summarize, type Row } from './stats.js';

export interface TimeoutBenchOptions extends RedisBenchOptions {
  /** Questions created (BENCH_TIMEOUTS, default 2000). */
  count: number;
  /** Deadlines are spread evenly over this many ms (default max(3000, count) so due rate ≤ 1000/s). */
  spreadMs: number;
}

/** Creations in flight at once while filling the store. */
const CREATE_CONCURRENCY = 20;
/** Extra wait after the last deadline, in ms, before giving up on questions that never fired. */
const FIRE_GRACE_MS = 15_000;

export async function timeoutAccuracy(o: TimeoutBenchOptions): Promise<Row[]> {
  const probe = new Redis(o.url, { lazyConnect: true });
  await probe.connect();
  const store = await QuestionStore.open({
    url: o.url,
    prefix: o.prefix,
    holderId: 'bench-t',
    logger: o.logger,
  });
  const firedAt = new Map<string, number>();
  let allFired: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allFired = resolve));
  try {
    await store.startTimeouts(async (id) => {
      firedAt.set(id, Date.now());
      await store.finish(id, { action: 'cancel' }, 'timed_out');
      if (firedAt.size === o.count) allFired();
    });
    const memBefore = await usedMemory(probe);
    // Lead time covers creating every question first (conservatively 2 000/s), so memory is read before any fires.
    const start = Date.now() + 1_000 + o.count / 2;
    const questions = await createSpread(store, o.count, start, o.spreadMs);
    const memAfter = await usedMemory(probe);
    const firedBeforeMemory = firedAt.size;
    await Promise.race([done, delay(start + o.spreadMs + FIRE_GRACE_MS - Date.now())]);
    return report(o, questions, firedAt, {
      perQuestion: (memAfter - memBefore) / o.count,
      firedBeforeMemory,
    });
  } finally {
    await store.close();
    probe.disconnect();
  }
}

async function createSpread(
  store: QuestionStore,
  count: number,
  start: number,
  spreadMs: number,
): Promise<Question[]> {
  const questions: Question[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const due = start + Math.floor((spreadMs * i) / count);
      questions.push(await store.create(sampleQuestion(Math.max(1, due - Date.now()))));
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  return questions;
}

function report(
  o: TimeoutBenchOptions,
  questions: Question[],
  firedAt: Map<string, number>,
  mem: { perQuestion: number; firedBeforeMemory: number },
): Row[] {
  const lateness: number[] = [];
  for (const q of questions) {
    const at = firedAt.get(q.id);
    if (at !== undefined) lateness.push(at - q.deadline);
  }
  const s = summarize(lateness);
  const early = lateness.filter((ms) => ms < 0).length;
  const missing = questions.length - lateness.length;
  const note = `early: ${early}, never fired: ${missing}, min ${s.min} ms, spread ${o.spreadMs} ms`;
  const memNote = mem.firedBeforeMemory > 0 ? ` (${mem.firedBeforeMemory} fired before the reading)` : '';
  return [
    row('timeouts', `lateness, ${o.count} pending (fired − deadline)`, s, { unit: 'ms', note }),
    {
      group: 'timeouts',
      name: 'Redis used_memory per pending question (record, indexes, due index, slot jobs)',
      n: o.count,
      p50: mem.perQuestion,
      p95: Number.NaN,
      p99: Number.NaN,
      max: Number.NaN,
      unit: 'bytes',
      note: `INFO used_memory delta / N${memNote}`,
    },
  ];
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
