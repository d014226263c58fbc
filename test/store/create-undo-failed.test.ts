// A create whose slot job cannot be added, and whose undo cannot run either (Redis refusing or gone just then):
// the record stays, and its slot's marker names a job that was never added, so every later create joining the
// slot counts on that job. The job is added after all, in the background, and the failed create is undone
// then: a later create into the same slot times out on time, not at the slot rescue 60-90 s later.
// On a private Redis: the job's add fails by Redis itself (BullMQ's job counter holds text), the undo because
// the store's ACL user is refused DEL for that moment (so the undo's MULTI is aborted whole).
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../faults/support/redis-server.js';
import { until } from '../support/until.js';
import { newQuestion, openStore, redisTimeMs, slotRoom, timedOut } from './helpers.js';

/** How late a timeout may be here: the background add is tried again every second. */
const LATE_BOUND_MS = 5_000;

let redis: PrivateRedis | undefined;
let admin: Redis | undefined;
afterEach(async () => {
  admin?.disconnect();
  await redis?.stop();
  [redis, admin] = [undefined, undefined];
});

describe('a create whose timeout job cannot be added nor the create undone', () => {
  it('leaves no question of its deadline slot without a timeout: the job is added after all', async () => {
    redis = await startPrivateRedis();
    const root = (admin = new Redis(redis.url));
    await root.acl('SETUSER', 'bot', 'on', '>bot-secret', '~*', '&*', '+@all');
    const url = new URL(redis.url);
    [url.username, url.password] = ['bot', 'bot-secret'];
    const prefix = 'undo';
    const store = await openStore(prefix, 'holder-a', { url: url.href });
    const ended = await timedOut(store, root);
    await slotRoom(root, 3_000);

    const counter = `${prefix}:{bull}:timeouts:id`;
    await root.set(counter, 'not a number');
    await root.acl('SETUSER', 'bot', '-del');
    await expect(store.create(newQuestion({ timeoutMs: 1_000 }))).rejects.toThrow();
    const [failed = ''] = await root.zrange(`${prefix}:{q}:due`, '0', '0');
    expect(failed, 'the undo could not run: the failed create is still there').not.toBe('');
    await root.del(counter);
    await root.acl('SETUSER', 'bot', '+del');

    const later = await store.create(newQuestion({ timeoutMs: 1_500 }));
    await until(
      'the later question times out',
      later.deadline + LATE_BOUND_MS - (await redisTimeMs(root)),
      () => Promise.resolve(ended.values.some((v) => v.id === later.id)),
    );
    await until('the failed create is undone', LATE_BOUND_MS, async () => {
      return (await root.exists(`${prefix}:{q}:question:${failed}`)) === 0;
    });
    expect(await root.zscore(`${prefix}:{q}:due`, failed)).toBeNull();
  });
});
