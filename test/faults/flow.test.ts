// T10, T21: answers keep flowing while the holder's inbox connection is killed again and again, and a load of
// 100 concurrent question cycles leaves nothing behind but finished records that expire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMEOUT_QUEUE, keys } from '../../src/redis/index.js';
import { redisUrl } from '../setup/context.js';
import { clientIds, newQuestion, scanAll } from '../store/helpers.js';
import { until } from '../support/until.js';
import { Cluster } from './support/cluster.js';

const GRACE_MS = 5_000;
/** Finished records are kept this long by default (StoreOptions.retentionSec), in seconds. */
const RETENTION_SEC = 86_400;

describe('answers flowing to three replica processes', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await Cluster.withInboxes(redisUrl(), 3);
  });
  afterAll(() => c.close());

  it("T10: loses none of 1000 answers while the holder's inbox connection is killed after every 100", async () => {
    const holder = c.replica(0);
    const asked = await Promise.all(Array.from({ length: 1000 }, () => c.ask(holder, newQuestion())));
    const inboxName = keys(c.prefix).connectionName('inbox', 'replica-0');
    let kills = 0;
    for (let batch = 0; batch < 10; batch++) {
      const answers = asked
        .slice(batch * 100, batch * 100 + 100)
        .map((q, i) => c.answer(c.replica(1 + (i % 2)), q.id, { action: 'decline' }, 'declined'));
      for (const id of await clientIds(c.redis, inboxName)) {
        kills += Number(await c.redis.client('KILL', 'ID', id));
      }
      await Promise.all(answers);
    }
    await c.allResponded();
    expect(kills).toBeGreaterThan(0);
    expect(await c.check(GRACE_MS)).toEqual([]);
  });

  it('T21: 100 concurrent cycles x 10 leave no pending index, timer job or inbox entry behind', async () => {
    const cycle = async (worker: number): Promise<void> => {
      for (let n = 0; n < 10; n++) {
        const q = await c.ask(c.replica(worker % 3), newQuestion({ userId: `U${worker}` }));
        await c.answer(
          c.replica((worker + 1) % 3),
          q.id,
          { action: 'accept', content: { ok: true } },
          'answered',
        );
      }
    };
    await Promise.all(Array.from({ length: 100 }, (_, worker) => cycle(worker)));
    await c.allResponded();
    expect(await c.check(GRACE_MS)).toEqual([]);

    const k = keys(c.prefix);
    const bull = `${k.bullPrefix}:${TIMEOUT_QUEUE}`;
    const timerJobs = async () =>
      (await scanAll(c.redis, `${bull}:*`)).filter(
        (key) => !/:(meta|id|events|marker|stalled-check)$/.test(key),
      );
    // A finish that empties a deadline slot while others keep emptying drops its job up to 400 ms later
    // (src/store/slot-drops.ts): the check awaits that drop, bounded, instead of racing it.
    await until('the emptied slot jobs are dropped', GRACE_MS, async () => (await timerJobs()).length === 0);
    expect(await timerJobs()).toEqual([]);
    const left = await scanAll(c.redis, `${c.prefix}:*`);
    const questions = left.filter((key) => key.startsWith(k.question('')));
    expect(questions).toHaveLength(c.history.ids().length);
    expect(
      left.filter(
        (key) => key.startsWith(`${c.prefix}:{q}:held:`) || key.startsWith(`${c.prefix}:{q}:user:`),
      ),
    ).toEqual([]);
    for (const holder of ['replica-0', 'replica-1', 'replica-2'])
      expect(await c.redis.xlen(k.inbox(holder))).toBe(0);
    const ttls = await Promise.all(questions.map((key) => c.redis.ttl(key)));
    expect(ttls.filter((ttl) => ttl < 0 || ttl > RETENTION_SEC)).toEqual([]);
  });
});
