import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis, recordingLogger, redisTimeMs } from './helpers.js';

describe('timeouts', () => {
  it('fires onDue once the deadline has passed, never before, and its cancel reaches the holder', async () => {
    const logger = recordingLogger();
    const store = await openStore(uniquePrefix(), 'holder-a', { logger });
    const redis = rawRedis();
    const due = collector<{ id: string; at: number; won: boolean }>();
    const delivered = collector<Question>();
    await store.startInbox((q) => delivered.push(q));
    await store.startTimeouts(async (id) => {
      const at = await redisTimeMs(redis);
      const result = await store.finish(id, { action: 'cancel' }, 'timed_out');
      due.push({ id, at, won: result.won });
    });

    const q = await store.create(newQuestion({ timeoutMs: 300 }));
    const [fired] = await due.next(1);
    expect(fired).toMatchObject({ id: q.id, won: true });
    expect(fired?.at).toBeGreaterThanOrEqual(q.deadline);
    const [ended] = await delivered.next(1);
    expect(ended).toMatchObject({
      id: q.id,
      state: 'cancelled',
      reason: 'timed_out',
      outcome: { action: 'cancel' },
    });
    // Removing its own (still active) job from inside the handler is expected to do nothing, quietly.
    expect(logger.logged.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('removes the timeout job of a finished question, so only unfinished questions come due', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const answered = await store.create(newQuestion({ timeoutMs: 200 }));
    const open = await store.create(newQuestion({ timeoutMs: 400 }));
    const jobKey = (id: string) => `${prefix}:{bull}:timeouts:${id}`;
    expect(await redis.exists(jobKey(answered.id))).toBe(1);

    await store.finish(answered.id, { action: 'accept', content: { ok: true } }, 'answered');
    expect(await redis.exists(jobKey(answered.id))).toBe(0);

    const due = collector<string>();
    await store.startTimeouts((id) => Promise.resolve(due.push(id)));
    // The answered question was due first; had its job survived, it would be ahead of this one.
    expect(await due.next(1)).toEqual([open.id]);
  });

  it('retries a timeout whose handler failed', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    const calls = collector<string>();
    await store.startTimeouts((id) => {
      calls.push(id);
      return calls.values.length === 1 ? Promise.reject(new Error('Redis blinked')) : Promise.resolve();
    });
    const q = await store.create(newQuestion({ timeoutMs: 50 }));
    expect(await calls.next(2)).toEqual([q.id, q.id]);
  });
});
