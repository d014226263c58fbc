// One step of a slot's timeout job (SLOT_NEXT_LUA), on real Redis: a job whose slot marker names another gen hands
// over what is due but does not walk on (two jobs walking one slot hand each question over twice), and a read
// ahead, made while the job's last questions are in flight, only forgets and reads: it never records a wake time
// nor deletes the marker, which the job's own steps do. Slots 10 minutes ahead (nothing due) and 10 minutes
// behind (everything due) keep the steps clear of the clock.
import { describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { newId } from '../../src/store/ids.js';
import { withScripts } from '../../src/store/scripts.js';
import { uniquePrefix } from '../setup/context.js';
import { rawRedis, redisTimeMs } from './helpers.js';

const SLOT_MS = 60_000;

/** A slot `offset` slots from now whose marker names gen `owner` (w = 1), holding `ids` 1 ms into it. */
async function slot(offset: number, owner: string, ids: string[]) {
  const redis = withScripts(rawRedis());
  const k = keys(uniquePrefix());
  const n = Math.floor((await redisTimeMs(redis)) / SLOT_MS) + offset;
  const marker = k.slot(String(n));
  await redis.hset(marker, 'g', owner, 'w', '1');
  for (const id of ids) await redis.zadd(k.due, n * SLOT_MS + 1, id);
  const step = (gen: string, readAhead: boolean, ...handed: string[]) =>
    redis.slotNext(k.due, marker, n * SLOT_MS, SLOT_MS, gen, 200, readAhead ? '1' : '0', ...handed);
  return { redis, due: k.due, marker, at: n * SLOT_MS + 1, step };
}

describe("a slot job's step", () => {
  it('walks to the deadline ahead when the marker names its gen', async () => {
    const { redis, marker, at, step } = await slot(10, 'gen-a', ['q']);
    const [kind, , deadline] = (await step('gen-a', false)) as [string, string, string];
    expect([kind, deadline]).toEqual(['wait', String(at)]);
    expect(await redis.hget(marker, 'w')).toBe(String(at));
  });

  it('ends without walking when the marker names another gen, the marker left to its job', async () => {
    const { redis, marker, due, step } = await slot(10, 'gen-b', ['q']);
    expect(await step('gen-a', false)).toEqual(['done']);
    expect(await redis.hgetall(marker)).toEqual({ g: 'gen-b', w: '1' });
    expect(await redis.zscore(due, 'q')).not.toBeNull();
  });

  it('hands over the questions due at the same moment in the order they were created', async () => {
    // Added to the index out of order; one deadline, so the index orders them by id alone.
    const created = Array.from({ length: 50 }, (_, i) => newId(Date.now() + i));
    const { step } = await slot(-10, 'gen-a', [...created].reverse());
    expect(await step('gen-a', false)).toEqual(['due', created]);
  });

  it('hands over what is due whatever gen the marker names', async () => {
    const { step } = await slot(-10, 'gen-b', ['q']);
    expect(await step('gen-a', false)).toEqual(['due', ['q']]);
  });
});

describe('a read ahead', () => {
  it('forgets the ids handed over and reads the due ones, the marker left as it is', async () => {
    const { redis, marker, due, step } = await slot(-10, 'gen-a', ['a', 'b']);
    expect(await step('gen-a', true, 'a')).toEqual(['due', ['b']]);
    expect(await redis.zscore(due, 'a')).toBeNull();
    expect(await redis.hgetall(marker)).toEqual({ g: 'gen-a', w: '1' });
  });

  it('answers none when nothing is due, neither walking nor deleting the marker', async () => {
    const ahead = await slot(10, 'gen-a', ['q']);
    expect(await ahead.step('gen-a', true)).toEqual(['none']);
    expect(await ahead.redis.hgetall(ahead.marker)).toEqual({ g: 'gen-a', w: '1' });
    const empty = await slot(-10, 'gen-a', []);
    expect(await empty.step('gen-a', true)).toEqual(['none']);
    expect(await empty.redis.hgetall(empty.marker)).toEqual({ g: 'gen-a', w: '1' });
  });
});
