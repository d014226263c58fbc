// A create whose slot job cannot be added is undone whole: without its timeout the question could stay pending
// for ever, and the indexes that name it have no expiry of their own. The job's add is made to fail by Redis
// itself (BullMQ's job counter holding text, so its INCR is refused).
import { describe, expect, it } from 'vitest';
import { uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore, rawRedis } from './helpers.js';

describe('a create whose timeout job cannot be added', () => {
  it('is refused, leaving no record and no index naming it', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    await redis.set(`${prefix}:{bull}:timeouts:id`, 'not a number');
    const answerers = { users: ['U0TWO', 'U0THREE'] };
    await expect(store.create(newQuestion({ answerers }))).rejects.toThrow();
    const indexes = ['U123', 'U0TWO', 'U0THREE'].map((user) => `${prefix}:{q}:user:${user}`);
    for (const key of [...indexes, `${prefix}:{q}:due`, `${prefix}:{q}:held:holder-a`]) {
      expect(await redis.zcard(key)).toBe(0);
    }
    expect(await redis.keys(`${prefix}:{q}:question:*`)).toEqual([]);
  });
});
