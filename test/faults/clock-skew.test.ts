// T16: a timeout worker whose clock is off. Deadlines are Redis TIME, and a job that comes due early by the
// worker's clock is put back until the deadline has passed on Redis, so a clock running ahead never ends a
// question early; a clock running behind ends it late by its skew, within the documented grace.
import { afterEach, describe, expect, it } from 'vitest';
import { redisUrl } from '../setup/context.js';
import { newQuestion } from '../store/helpers.js';
import { Cluster } from './support/cluster.js';

const SKEW_MS = 2_000;
/** The holder's local backstop grace; a worker behind by less than it still ends questions within it. */
const GRACE_MS = 5_000;

let c: Cluster | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

/** Replica 0 holds the questions (true clock); replica 1, with the given clock offset, runs the timeouts. */
async function skewedWorker(skewMs: number): Promise<Cluster> {
  c = await Cluster.start({ redisUrl: redisUrl(), replicas: 2, skewMs: [0, skewMs] });
  await c.replica(0).call({ op: 'startInbox' });
  await c.replica(1).call({ op: 'startTimeouts', hold: false });
  return c;
}

async function endedAt(c: Cluster, id: string): Promise<number> {
  return Number(await c.redis.hget(`${c.prefix}:{q}:question:${id}`, 'endedAt'));
}

describe('a timeout worker with a skewed clock', () => {
  it('T16: running 2 s ahead, it never ends a question before its Redis TIME deadline', async () => {
    const c = await skewedWorker(SKEW_MS);
    const asked = await Promise.all(
      Array.from({ length: 20 }, () => c.ask(c.replica(0), newQuestion({ timeoutMs: 500 }))),
    );
    await c.allResponded();
    expect(await c.check(GRACE_MS)).toEqual([]);
    for (const q of asked) expect(await endedAt(c, q.id)).toBeGreaterThanOrEqual(q.deadline);
  });

  it('T16: running 2 s behind, it ends each question late by about its skew, within the grace', async () => {
    const c = await skewedWorker(-SKEW_MS);
    const asked = await Promise.all(
      Array.from({ length: 20 }, () => c.ask(c.replica(0), newQuestion({ timeoutMs: 500 }))),
    );
    await c.allResponded();
    expect(await c.check(GRACE_MS)).toEqual([]);
    for (const q of asked) expect(await endedAt(c, q.id)).toBeGreaterThanOrEqual(q.deadline);
  });
});
