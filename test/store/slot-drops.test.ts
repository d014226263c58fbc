// Deferred drops of emptied deadline slots (src/store/slot-drops.ts): while slots keep being emptied, a finish
// that empties one keeps its marker and job for the next create to join, and the slot is dropped after a grace
// only if it is still empty. The store's clock is a hand-driven one: its `now` stands still (so every emptying
// after the first counts as "again") and the drops run when the test fires them.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { TIMEOUT_QUEUE, keys } from '../../src/redis/index.js';
import type { Question } from '../../src/relay/types.js';
import type { QuestionStore } from '../../src/store/index.js';
import { slotOf } from '../../src/store/slots.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis, scanAll, slotRoom } from './helpers.js';

type HandClock = Pick<Clock, 'now' | 'schedule'> & { fire(): void };

function handClock(): HandClock {
  const due = new Set<() => void>();
  return {
    now: () => 1_000_000,
    schedule: (fn) => {
      due.add(fn);
      return () => due.delete(fn);
    },
    fire: () => {
      const fns = [...due];
      due.clear();
      for (const fn of fns) fn();
    },
  };
}

const ANSWER = { action: 'accept', content: { ok: true } } as const;

/** A store on a hand clock whose last finish emptied a slot, so the next finish that empties one keeps it. */
async function churning(
  prefix: string,
  holder = 'holder-a',
): Promise<{ store: QuestionStore; clock: HandClock }> {
  const clock = handClock();
  const store = await openStore(prefix, holder, { clock });
  // Far enough ahead to be in another slot than the tests' short questions; its slot is dropped at once.
  const first = await store.create(newQuestion({ timeoutMs: 600_000 }));
  await store.finish(first.id, ANSWER, 'answered');
  return { store, clock };
}

/** The slot's marker (g: its job's gen) and the ids of the slot's jobs in the timeout queue. */
async function slotState(redis: Redis, prefix: string, q: Question) {
  const slot = slotOf(q.deadline);
  const gen = await redis.hget(keys(prefix).slot(String(slot)), 'g');
  const jobs = await scanAll(redis, `${prefix}:{bull}:${TIMEOUT_QUEUE}:${slot}.*`);
  return { gen, jobs: jobs.map((key) => key.split(':').pop() ?? '') };
}

/** Waits until the timeout queue's event stream reports `event` ('removed', 'completed') for job `jobId`. */
async function queueEvent(prefix: string, event: string, jobId: string): Promise<void> {
  const stream = `${keys(prefix).bullPrefix}:${TIMEOUT_QUEUE}:events`;
  const reader = new Redis(redisUrl());
  try {
    for (let last = '0'; ;) {
      const reply = await reader.xread('BLOCK', 0, 'STREAMS', stream, last);
      for (const [id, fields] of reply?.[0]?.[1] ?? []) {
        last = id;
        const at = (name: string) => fields[fields.indexOf(name) + 1];
        if (at('event') === event && at('jobId') === jobId) return;
      }
    }
  } finally {
    reader.disconnect();
  }
}

describe('deferred slot drops', () => {
  it('keeps a slot emptied while slots keep emptying, so the next create joins its job instead of adding one', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    await slotRoom(redis, 5_000);
    const { store } = await churning(prefix);
    const answered = await store.create(newQuestion({ timeoutMs: 2_000 }));
    const opened = await slotState(redis, prefix, answered);
    expect(opened.jobs).toEqual([`${slotOf(answered.deadline)}.${opened.gen}`]);

    await store.finish(answered.id, ANSWER, 'answered');
    expect(await slotState(redis, prefix, answered)).toEqual(opened);
    const next = await store.create(newQuestion({ timeoutMs: 3_000 }));
    expect(slotOf(next.deadline)).toBe(slotOf(answered.deadline));
    expect(await slotState(redis, prefix, next)).toEqual(opened);
  });

  it('drops a kept slot after its grace while it is still empty: its marker and its job are gone', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    const { store, clock } = await churning(prefix);
    const q = await store.create(newQuestion({ timeoutMs: 2_000 }));
    await store.finish(q.id, ANSWER, 'answered');
    const kept = await slotState(redis, prefix, q);
    expect(kept.jobs).toHaveLength(1);

    clock.fire();
    await queueEvent(prefix, 'removed', kept.jobs[0] ?? '');
    expect(await slotState(redis, prefix, q)).toEqual({ gen: null, jobs: [] });
  });

  it('keeps a slot that a create joined during the grace, and its job times that question out', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    await slotRoom(redis, 5_000);
    const { store, clock } = await churning(prefix);
    const answered = await store.create(newQuestion({ timeoutMs: 200 }));
    await store.finish(answered.id, ANSWER, 'answered');
    const kept = await slotState(redis, prefix, answered);
    const joined = await store.create(newQuestion({ timeoutMs: 600 }));
    clock.fire();
    // The drop script went out on the store's connection before this read, so it has run when the read answers.
    await store.get(joined.id);
    expect(await slotState(redis, prefix, joined)).toEqual(kept);

    const timedOut = collector<string>();
    await store.startTimeouts(async (id) => {
      if ((await store.finish(id, { action: 'cancel' }, 'timed_out')).won) timedOut.push(id);
    });
    expect(await timedOut.next(1)).toEqual([joined.id]);
  });

  it('runs the pending drops when the store closes, leaving nothing of the slot behind', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    const { store } = await churning(prefix);
    const q = await store.create(newQuestion({ timeoutMs: 2_000 }));
    await store.finish(q.id, ANSWER, 'answered');
    expect((await slotState(redis, prefix, q)).jobs).toHaveLength(1);

    await store.close();
    expect(await slotState(redis, prefix, q)).toEqual({ gen: null, jobs: [] });
  });

  it('leaves, when the store dies before the drop, a job that finds its slot empty and completes, ending nothing', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    // The hand clock never fires: as if the process died before the grace ran out.
    const { store: dying } = await churning(prefix, 'dying');
    const q = await dying.create(newQuestion({ timeoutMs: 300 }));
    await dying.finish(q.id, ANSWER, 'answered');
    const kept = await slotState(redis, prefix, q);
    expect(kept.jobs).toHaveLength(1);

    const survivor = await openStore(prefix, 'survivor');
    const due = collector<string>();
    await survivor.startTimeouts((id) => Promise.resolve(due.push(id)));
    await queueEvent(prefix, 'completed', kept.jobs[0] ?? '');
    expect(due.values).toEqual([]);
    expect(await slotState(redis, prefix, q)).toEqual({ gen: null, jobs: [] });
    expect(await survivor.get(q.id)).toMatchObject({ state: 'accepted', reason: 'answered' });
  });
});
