// A 2026 server may answer a call (or a retry) with an InputRequiredResult that carries only `requestState`, no
// inputRequests ("load shedding" in the spec's schema; the client may retry at once). Such a round between two
// asking rounds finishes the call, in memory and durable alike; a durable call records it as its current round
// (claimed by the replica sending its retry), so the store's round numbers stay the hub's, and a survivor
// taking it over sends that round's retry, not the earlier one the server already answered.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { MemoryRoundStore, MemoryRounds } from '../../src/rounds/memory-store.js';
import { resumedCall } from '../../src/rounds/take-over.js';
import { ROUND_LEASE_MS } from '../../src/rounds/keeper.js';
import type { Round } from '../../src/rounds/types.js';
import {
  CONFIRM,
  inputRequired,
  origin,
  scriptedHandler,
  scriptedHub,
  text,
  type Reply,
  type Script,
} from './mrtr-scripted.js';

const ask = (key: string, message: string) => ({
  [key]: inputRequired.elicit({ message, requestedSchema: CONFIRM }),
});

/** By the state it is sent: asks a (s1), then nothing (s2), then b (s3), then the result. */
function shedding(onShedRetry?: () => Promise<Reply>): Script {
  let shedRetries = 0;
  return (_n, leg) => {
    if (leg.requestState === undefined) {
      return inputRequired({ inputRequests: ask('a', 'First?'), requestState: 's1' });
    }
    if (leg.requestState === 's1') return inputRequired({ requestState: 's2' });
    if (leg.requestState === 's2') {
      shedRetries += 1;
      if (shedRetries === 1 && onShedRetry !== undefined) return onShedRetry();
      return inputRequired({ inputRequests: ask('b', 'Second?'), requestState: 's3' });
    }
    return text('both answered');
  };
}

const accept = () => ({ action: 'accept' as const, content: { ok: true } });
const logger = { warn: () => undefined };
const outcomeOf = (call: Promise<{ text: string }>) =>
  call.then(
    (r) => `result: ${r.text}`,
    (e: unknown) => `failed: ${e instanceof Error ? e.message : String(e)}`,
  );

describe('a round that asks nothing, between two asking rounds', () => {
  it('finishes a call whose rounds live in memory', async () => {
    const { handler, legs } = scriptedHandler({ shed: shedding() });
    const { hub } = scriptedHub(handler, accept);
    const result = await hub.callTool({ server: 'modern', tool: 'shed', args: {}, origin });
    expect(result.text).toBe('both answered');
    expect(legs['shed']?.map((leg) => leg.requestState)).toEqual([undefined, 's1', 's2', 's3']);
    expect(legs['shed']?.[2]?.inputResponses).toBeUndefined();
  });

  it('finishes a durable call, the store numbering every round as the hub does', async () => {
    const { handler, legs } = scriptedHandler({ shed: shedding() });
    const shared = new MemoryRounds();
    const rounds = roundKeeper({
      store: new MemoryRoundStore(shared),
      claimant: 'r1',
      clock: systemClock,
      logger,
    });
    const recorded: { round: number; keys: string[] }[] = [];
    const { hub, sink } = scriptedHub(
      handler,
      () => {
        for (const r of shared.rounds.values())
          recorded.push({ round: r.round, keys: r.requests.map((q) => q.key) });
        return accept();
      },
      rounds,
    );
    const outcome = await outcomeOf(
      hub.callTool({ server: 'modern', tool: 'shed', args: {}, origin, durable: true }),
    );
    expect(outcome).toBe('result: both answered');
    expect(sink.asked.map((a) => a.request.message)).toEqual(['First?', 'Second?']);
    expect(sink.asked.map((a) => a.ctx.round?.round)).toEqual([1, 3]);
    expect(recorded).toEqual([
      { round: 1, keys: ['a'] },
      { round: 3, keys: ['b'] },
    ]);
    expect(legs['shed']).toHaveLength(4);
    expect(shared.rounds.size).toBe(0);
  });

  it('is the round a survivor resumes when the replica sending its retry dies: its own retry, no answers', async () => {
    let dies = (): void => undefined;
    const lost = new Promise<Reply>((resolve) => (dies = () => resolve(text('too late'))));
    const { handler, legs } = scriptedHandler({ shed: shedding(() => lost) });
    const shared = new MemoryRounds();
    const store = new MemoryRoundStore(shared);
    const r1 = roundKeeper({ store, claimant: 'r1', clock: systemClock, logger });
    const first = scriptedHub(handler, accept, r1);
    const abandoned = outcomeOf(
      first.hub.callTool({ server: 'modern', tool: 'shed', args: {}, origin, durable: true }),
    );
    await expect.poll(() => legs['shed']?.length).toBe(3); // the retry of the round that asks nothing is out
    const claim = { claimant: 'r2', now: Date.now() + ROUND_LEASE_MS + 1_000, leaseMs: ROUND_LEASE_MS };
    const [taken]: (Round | undefined)[] = await store.takeOver(claim);
    expect(taken).toMatchObject({ round: 2, requestState: 's2', requests: [], answers: {} });
    if (taken === undefined) throw new Error('nothing taken over');

    const r2 = roundKeeper({ store, claimant: 'r2', clock: systemClock, logger });
    const survivor = scriptedHub(handler, accept, r2);
    const resumed = await survivor.hub.callTool({ ...resumedCall(taken), origin });
    expect(resumed.text).toBe('both answered');
    expect(legs['shed']?.slice(3)).toEqual([
      { requestState: 's2', inputResponses: undefined },
      { requestState: 's3', inputResponses: { b: { action: 'accept', content: { ok: true } } } },
    ]);
    expect(survivor.sink.asked.map((a) => a.ctx.round?.round)).toEqual([3]);
    dies(); // the "dead" replica's leg settles, so its hub closes at once
    await abandoned;
    expect(shared.rounds.size).toBe(0);
  });
});
