// T6, T7, T9, T15: the process running a timeout job is killed (once, twice) or paused past its lock, and a
// replica dies right after winning a transition. The timeout still ends its question exactly once, within the
// bound the configured lock and stalled interval give, checked on Redis TIME.
import { afterEach, describe, expect, it } from 'vitest';
import { newQuestion, redisTimeMs } from '../store/helpers.js';
import { TIMER_MAX_BLOCK_MS } from '../../src/store/index.js';
import { redisUrl } from '../setup/context.js';
import { Cluster } from './support/cluster.js';
import type { Replica } from './support/processes.js';

const LOCK_MS = 2_000;
const STALL_MS = 1_000;
/** A held job runs again on a live worker within lock + stalled interval; 1 s more for the run itself. */
const RECOVERY_BOUND_MS = LOCK_MS + STALL_MS + 1_000;
const GRACE_MS = 5_000;
/**
 * A paused worker's blocking BZPOPMIN stays registered in Redis and takes the wake-up marker of the job moved
 * back to wait, so a live worker only fetches it when its own block times out: up to BullMQ's 10 s cap
 * (TIMER_MAX_BLOCK_MS) on top of the recovery bound.
 */
const PAUSED_RECOVERY_BOUND_MS = RECOVERY_BOUND_MS + TIMER_MAX_BLOCK_MS;

let c: Cluster | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

async function cluster(replicas: number): Promise<Cluster> {
  c = await Cluster.start({ redisUrl: redisUrl(), replicas, lockMs: LOCK_MS, stallMs: STALL_MS });
  await c.replica(0).call({ op: 'startInbox' });
  return c;
}

/** Starts `worker`'s timeouts holding each due job, and resolves once it holds the job of `id`. */
async function holdsJob(worker: Replica, id: string): Promise<void> {
  const due = worker.next((e) => e.event === 'due' && e.id === id);
  await worker.call({ op: 'startTimeouts', hold: true });
  await due;
}

/** The Redis TIME at which the question ended, from its record. */
async function endedAt(c: Cluster, id: string): Promise<number> {
  const ended = await c.redis.hget(`${c.prefix}:{q}:question:${id}`, 'endedAt');
  return Number(ended);
}

describe('a timeout worker that dies or stalls', () => {
  it('T6: SIGKILLed while running the timeout, the job runs again elsewhere: one cancel, within lock + stall', async () => {
    const c = await cluster(3);
    const [holder, doomed, survivor] = [c.replica(0), c.replica(1), c.replica(2)];
    const q = await c.ask(holder, newQuestion({ timeoutMs: 300 }));
    await holdsJob(doomed, q.id);
    await survivor.call({ op: 'startTimeouts', hold: false });
    const killedAt = await redisTimeMs(c.redis);
    await doomed.kill();
    await c.allResponded();
    expect(await c.check(GRACE_MS)).toEqual([]);
    expect(await endedAt(c, q.id)).toBeLessThanOrEqual(killedAt + RECOVERY_BOUND_MS);
  });

  it('T7: killed twice during the same job, the question still ends once (maxStalledCount tolerates it)', async () => {
    const c = await cluster(3);
    const [holder, first, second] = [c.replica(0), c.replica(1), c.replica(2)];
    const q = await c.ask(holder, newQuestion({ timeoutMs: 300 }));
    await holdsJob(first, q.id);
    const secondHolds = second.next((e) => e.event === 'due' && e.id === q.id);
    await second.call({ op: 'startTimeouts', hold: true });
    await first.kill();
    await secondHolds;
    await holder.call({ op: 'startTimeouts', hold: false });
    const killedAt = await redisTimeMs(c.redis);
    await second.kill();
    await c.allResponded();
    expect(await c.check(GRACE_MS + RECOVERY_BOUND_MS)).toEqual([]);
    expect(await endedAt(c, q.id)).toBeLessThanOrEqual(killedAt + RECOVERY_BOUND_MS);
  });

  it('T15: SIGSTOPped past its lock and resumed, its late run loses the transition and it keeps working', async () => {
    const c = await cluster(3);
    const [holder, paused, other] = [c.replica(0), c.replica(1), c.replica(2)];
    const q = await c.ask(holder, newQuestion({ timeoutMs: 300 }));
    await holdsJob(paused, q.id);
    const otherWon = other.next((e) => e.event === 'timedOut' && e.id === q.id);
    await other.call({ op: 'startTimeouts', hold: false });
    paused.pause();
    expect(await otherWon).toMatchObject({ won: true });
    paused.resume();
    const lateRun = paused.next((e) => e.event === 'timedOut' && e.id === q.id);
    await paused.call({ op: 'release', id: q.id });
    expect(await lateRun).toMatchObject({ won: false });
    await c.allResponded();
    expect(await c.check(PAUSED_RECOVERY_BOUND_MS)).toEqual([]);
    expect(await paused.call({ op: 'ping' })).toBe('pong');
  });
});

describe('a replica that dies right after winning', () => {
  it('T9: the answer it won reaches the holder once; the retried submit elsewhere is told it was answered', async () => {
    const c = await cluster(3);
    const [holder, doomed, other] = [c.replica(0), c.replica(1), c.replica(2)];
    const q = await c.ask(holder, newQuestion());
    expect(await c.answer(doomed, q.id, { action: 'accept', content: { ok: true } }, 'answered')).toBe(true);
    await doomed.kill();
    const retry = await other.finish(q.id, { action: 'accept', content: { ok: true } }, 'answered');
    expect(retry).toMatchObject({ won: false, state: 'accepted' });
    await c.allResponded();
    expect(await c.check(GRACE_MS)).toEqual([]);
  });
});
