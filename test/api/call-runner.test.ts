// The call runner's side of durable 2026 rounds, over real Redis call records: the sweep for calls whose
// replica is gone leaves a call waiting in an open round (a survivor resumes it), never fails a call that a
// replica adopted meanwhile, and the replica resuming a round ends the call once, with the retry's result.
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { CallRunner, type ApiToolRun, type ToolAnswer } from '../../src/api/call-runner.js';
import { CallStore } from '../../src/api/call-store.js';
import { systemClock } from '../../src/clock.js';
import { keys } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const prefixes: string[] = [];
const connections: Redis[] = [];
afterEach(async () => {
  await Promise.all(prefixes.splice(0).map(deleteUnder));
  await Promise.all(connections.splice(0).map((redis) => redis.quit()));
});

/** One replica's call store (holder `holderId`) over a deployment's Redis prefix. */
function storeOf(prefix: string, holderId: string): CallStore {
  const redis = new Redis(redisUrl());
  connections.push(redis);
  const options = { redis, keys: keys(prefix), holderId, retentionSec: 60, endedMaxLen: 100 };
  return new CallStore({ ...options, now: () => systemClock.now() });
}

interface Replica {
  runner: CallRunner;
  store: CallStore;
  ended: string[];
  runs: ApiToolRun[];
}

/** Replica `holderId` (its lease alive), whose tool runs answer `answer` and whose calls wait in `inRound`. */
async function replica(
  prefix: string,
  holderId: string,
  inRound: (callId: string) => Promise<boolean>,
  answer: ToolAnswer = { isError: false, text: 'done' },
): Promise<Replica> {
  const store = storeOf(prefix, holderId);
  await connections.at(-1)?.set(keys(prefix).lease(holderId), '1', 'PX', 60_000);
  const ended: string[] = [];
  const runs: ApiToolRun[] = [];
  const runner = new CallRunner({
    store,
    runTool: (run) => {
      runs.push(run);
      return Promise.resolve(answer);
    },
    inRound,
    audit: {
      callCreated: () => Promise.resolve(),
      callEnded: (call) => Promise.resolve(void ended.push(`${call.id} ${call.status}`)),
    },
    clock: systemClock,
    logger: { warn: () => undefined },
  });
  return { runner, store, ended, runs };
}

/** A running call whose holder (`dead`, no lease) is gone. */
async function orphanedCall(prefix: string): Promise<string> {
  const call = { client: 'ci', server: 'modern', tool: 'two_rounds', user: 'U1' };
  return (await storeOf(prefix, 'dead').create(call)).id;
}

describe('API calls in durable rounds', () => {
  it('are left running by the sweep while their round is open, and failed once it is gone', async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const open = new Set<string>();
    const b = await replica(prefix, 'b', (callId) => Promise.resolve(open.has(callId)));
    const id = await orphanedCall(prefix);
    open.add(id);
    await b.runner.sweep();
    expect((await b.store.get(id))?.status).toBe('running');
    open.delete(id);
    await b.runner.sweep();
    expect((await b.store.get(id))?.status).toBe('failed');
    expect(b.ended).toEqual([`${id} failed`]);
  });

  it('are never failed by a sweep that read them before a replica resuming their round adopted them', async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const c = await replica(prefix, 'c', () => Promise.resolve(false));
    // Between the sweep's read of the dead holder's call and its end, replica c adopts the call (it resumed
    // the round) and the round finishes: the round check says no round, but the call is no longer the dead one's.
    const b = await replica(prefix, 'b', async (callId) => {
      expect(await c.store.adopt(callId)).toBe(true);
      return false;
    });
    const id = await orphanedCall(prefix);
    await b.runner.sweep();
    expect(await b.store.get(id)).toMatchObject({ status: 'running', holder: 'c' });
    expect(b.ended).toEqual([]);
  });

  it('end once, completed, on the replica that resumes their round', async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const b = await replica(prefix, 'b', () => Promise.resolve(true));
    const id = await orphanedCall(prefix);
    const resume = { id: 'round_1', round: 1, answers: {} };
    const run = { server: 'modern', tool: 'two_rounds', args: {}, origin: { userId: 'U1', callId: id } };
    await b.runner.resume({ ...run, resume });
    expect(b.runs).toEqual([{ ...run, resume }]);
    expect(await b.store.get(id)).toMatchObject({
      status: 'completed',
      holder: 'b',
      result: { content: [{ type: 'text', text: 'done' }] },
    });
    await b.runner.sweep();
    expect(b.ended).toEqual([`${id} completed`]);
  });
});
