// Redis floor and the real QuestionStore operations, each reported as a multiple of the PING floor.
import { Redis } from 'ioredis';
import type { NewQuestion, Question } from '../src/relay/types.js';
import { QuestionStore, type StoreLogger } from '../src/store/index.js';
import { pairedRow, row, summarize, timePaired, timeSequential, type Row } from './stats.js';

export interface RedisBenchOptions {
  url: string;
  /** Key prefix owned by this run; every key the benchmarks write lives under it. */
  prefix: string;
  /** Measured calls per operation (after warm-up). */
  n: number;
  logger: StoreLogger;
}

/** A question as the MCP side would hand it over; the 10-minute timeout keeps it pending during the bench. */
export const sampleQuestion = (timeoutMs = 600_000): NewQuestion => ({
  server: 'bench',
  userId: 'U0BENCH',
  origin: { userId: 'U0BENCH' },
  message: 'Benchmark question',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  timeoutMs,
});

/** PING on a plain ioredis client: the floor every store operation is compared with. */
export async function pingFloor(url: string, n: number): Promise<Row> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    const { samples, opsPerSec } = await timeSequential(n, Math.min(2_000, n), () => redis.ping());
    return row('redis', 'PING (plain ioredis)', summarize(samples), { opsPerSec });
  } finally {
    redis.disconnect();
  }
}

/** A plain client whose PING is interleaved with each measured store call as its floor. */
async function pinger(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  return redis;
}

/** create, get and finish (the Lua transition plus timeout-job removal) on one store. */
export async function storeOps(o: RedisBenchOptions): Promise<Row[]> {
  const store = await QuestionStore.open({
    url: o.url,
    prefix: o.prefix,
    holderId: 'bench-ops',
    logger: o.logger,
  });
  const redis = await pinger(o.url);
  const ping = () => redis.ping();
  try {
    const ids: string[] = [];
    const warm = Math.min(200, o.n);
    const created = await timePaired(o.n, warm, ping, async () => {
      ids.push((await store.create(sampleQuestion())).id);
    });
    const got = await timePaired(o.n, warm, ping, (i) => store.get(ids[i % ids.length] ?? ''));
    const accept = { action: 'accept', content: { name: 'Ada' } } as const;
    const won = await timePaired(o.n, 0, ping, (i) => store.finish(ids[i] ?? '', accept, 'answered'));
    const lost = await timePaired(o.n, 0, ping, (i) =>
      store.finish(ids[i] ?? '', { action: 'cancel' }, 'timed_out'),
    );
    return [
      pairedRow(
        'store',
        'create (Lua: TIME + record + indexes + due index; BullMQ add when it opens a deadline slot)',
        created,
      ),
      pairedRow('store', 'get (HGETALL + parse)', got),
      pairedRow(
        'store',
        'finish, winning (Lua CAS/XADD; slot job removal, not awaited, when it empties the slot)',
        won,
      ),
      pairedRow('store', 'finish, losing (already finished)', lost),
    ];
  } finally {
    redis.disconnect();
    await store.close();
  }
}

/**
 * Finish on replica B → outcome delivered by replica A's inbox (XREAD BLOCK loop; the entry carries the record). Measured from
 * just before B calls finish to A's onOutcome callback, so it includes finish itself.
 */
export async function inboxDelivery(o: RedisBenchOptions): Promise<Row> {
  const holder = await QuestionStore.open({
    url: o.url,
    prefix: o.prefix,
    holderId: 'bench-a',
    logger: o.logger,
  });
  const other = await QuestionStore.open({
    url: o.url,
    prefix: o.prefix,
    holderId: 'bench-b',
    logger: o.logger,
  });
  const redis = await pinger(o.url);
  const ping = () => redis.ping();
  const waiting = new Map<string, () => void>();
  try {
    await holder.startInbox((q: Question) => waiting.get(q.id)?.());
    const n = Math.min(o.n, 2_000);
    const warm = 50;
    const ids: string[] = [];
    for (let i = 0; i < n + warm; i++) ids.push((await holder.create(sampleQuestion())).id);
    const t = await timePaired(n, warm, ping, async (i) => {
      const id = ids[i] ?? '';
      const delivered = new Promise<void>((resolve) => waiting.set(id, resolve));
      await other.finish(id, { action: 'decline' }, 'declined');
      await delivered;
      waiting.delete(id);
    });
    return pairedRow('store', 'finish on B → holder A inbox delivery', { ...t, opsPerSec: undefined });
  } finally {
    redis.disconnect();
    await other.close();
    await holder.close();
  }
}

/** Deletes every key under the run's prefix (SCAN + DEL; never FLUSH*). Returns how many were deleted. */
export async function cleanPrefix(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (found.length > 0) deleted += await redis.del(...found);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** INFO memory used_memory, in bytes. */
export async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  const match = /^used_memory:(\d+)/m.exec(info);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]);
}
