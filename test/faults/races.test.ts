// T1-T3 across three replicas as separate processes, checked by the history checker: a question created on one
// replica and answered on others reaches its holder once, duplicate submits and a submit racing the timeout
// still give exactly one outcome, and what the holder relays is what the card shows and Redis stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/relay/types.js';
import { keys } from '../../src/redis/index.js';
import { TIMEOUT_QUEUE } from '../../src/redis/index.js';
import { redisUrl } from '../setup/context.js';
import { newQuestion } from '../store/helpers.js';
import { until } from '../support/until.js';
import { Cluster } from './support/cluster.js';

/** The documented grace: the holder's local backstop ends a question at deadline + 5 s (relay.ts). */
const GRACE_MS = 5_000;
const SCHEMA = {
  type: 'object',
  properties: { n: { type: 'integer', minimum: 0 } },
  required: ['n'],
};

describe('three replica processes', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await Cluster.withInboxes(redisUrl(), 3);
  });
  afterAll(() => c.close());

  it('T1: relays an answer given on another replica to the holder once, and leaves no timer job behind', async () => {
    const [a, b, z] = [c.replica(0), c.replica(1), c.replica(2)];
    const asked = [];
    for (let i = 0; i < 50; i++) asked.push(await c.ask(a, newQuestion({ requestedSchema: SCHEMA })));
    await Promise.all(
      asked.map((q, i) => c.answer(i % 2 ? b : z, q.id, { action: 'accept', content: { n: i } }, 'answered')),
    );
    await c.allResponded();
    expect(await c.check(GRACE_MS)).toEqual([]);
    const bull = `${keys(c.prefix).bullPrefix}:${TIMEOUT_QUEUE}`;
    // A finish that empties a deadline slot while others keep emptying drops its job up to 400 ms later
    // (src/store/slot-drops.ts): the check awaits that drop, bounded, instead of racing it.
    const delayedJobs = () => c.redis.zcard(`${bull}:delayed`);
    await until('the emptied slot job is dropped', GRACE_MS, async () => (await delayedJobs()) === 0);
    expect(await delayedJobs()).toBe(0);
    expect(await c.redis.zcard(keys(c.prefix).held('replica-0'))).toBe(0);
  });

  it('T2: of five concurrent submits per question across the replicas exactly one wins, 1000 times', async () => {
    const asked = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        c.ask(c.replica(i % 3), newQuestion({ requestedSchema: SCHEMA })),
      ),
    );
    const wins = await Promise.all(
      asked.flatMap((q) =>
        [0, 1, 2, 3, 4].map((n) =>
          c.answer(c.replica((n + q.deadline) % 3), q.id, { action: 'accept', content: { n } }, 'answered'),
        ),
      ),
    );
    await c.allResponded();
    expect(wins.filter(Boolean)).toHaveLength(1000);
    expect(await c.check(GRACE_MS)).toEqual([]);
  });

  it('T3: a submit racing the timeout (deadline ± 50 ms) gives exactly one outcome, as the card shows', async () => {
    await Promise.all(c.replicas.map((r) => r.call({ op: 'startTimeouts', hold: false })));
    const timeoutMs = 300;
    const asked = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        c.ask(c.replica(i % 3), newQuestion({ requestedSchema: SCHEMA, timeoutMs })),
      ),
    );
    // Submits land from 250 to 350 ms after creation, spread evenly: the race is the point of the test.
    const submits = asked.map(
      (q, i) =>
        new Promise<boolean>((resolve, reject) => {
          const answer = (): void => {
            const outcome: Outcome = { action: 'accept', content: { n: i } };
            c.answer(c.replica((i + 1) % 3), q.id, outcome, 'answered').then(resolve, reject);
          };
          setTimeout(answer, timeoutMs - 50 + (i % 101));
        }),
    );
    await Promise.all(submits);
    await c.allResponded();
    expect(await c.check(GRACE_MS)).toEqual([]);
  });
});
