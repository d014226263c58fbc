// The RoundStore contract, one suite run against every implementation: round-store.memory.test.ts and
// round-store.redis.test.ts each call roundStoreContract. Claims take the caller's `now`, so lease lapses are
// tested by the clock value given, never by waiting.
import { describe, expect, it } from 'vitest';
import type { Claim, NewRound, RoundStore } from '../../src/rounds/index.js';

/**
 * One deployment: a store per replica over one shared state, and `live(holder, alive)` setting whether a
 * holder's lease lives (the question store's `lease:<holder>` in Redis).
 */
export interface RoundDeployment {
  stores: RoundStore[];
  live(holder: string, alive: boolean): Promise<void>;
}

export type OpenRoundStores = (replicas: number) => Promise<RoundDeployment>;

const LEASE_MS = 5_000;
const T = 1_000_000;
const claimBy = (claimant: string, now = T): Claim => ({ claimant, now, leaseMs: LEASE_MS });

/** A requestState no codec would simplify: JSON-like text, spaces, quotes, newlines, padding, non-ASCII. */
const STATE = ' {"step":1}\n\t=="é✓\\u0000" 🙂 ';

function newRound(overrides: Partial<NewRound> = {}): NewRound {
  return {
    server: 'mrtr',
    tool: 'two_rounds',
    args: { greeting: 'hi', nested: { list: [], empty: {} } },
    origin: { userId: 'U1', teamId: 'T1', channelId: 'C1', threadTs: '1.000' },
    requestState: STATE,
    requests: [
      { key: 'name', request: { method: 'elicitation/create', params: { message: 'Name?' } } },
      { key: 'age', request: { method: 'elicitation/create', params: { message: 'Age?', list: [] } } },
    ],
    round: 1,
    deadline: Date.now() + 60_000,
    ...overrides,
  };
}

async function stores(open: OpenRoundStores, n: number): Promise<RoundStore[]> {
  const opened = (await open(n)).stores;
  if (opened.length !== n) throw new Error('stores not opened');
  return opened;
}

export function roundStoreContract(name: string, open: OpenRoundStores): void {
  describe(`RoundStore contract: ${name}`, () => {
    it('keeps the call, its origin and requestState byte for byte, and reads the round back whole', async () => {
      const [a, b] = await stores(open, 2);
      const round = newRound();
      const opened = await a!.open(round);
      expect(opened).toEqual({ ...round, id: opened.id, status: 'waiting', answers: {} });
      const read = await b!.get(opened.id);
      expect(read).toEqual(opened);
      expect(read?.requestState).toBe(STATE);
      expect(await b!.get('round_never')).toBeUndefined();
    });

    it('keeps a requestState holding lone surrogates byte for byte, in the first round and the next', async () => {
      const [a, b] = await stores(open, 2);
      // A valid JSON string, though not valid UTF-16 (e.g. Python's surrogateescape of undecodable bytes).
      const lone = 'v1.\udc80\udcff.\ud800|' + STATE;
      const round = await a!.open(newRound({ requestState: lone, requests: [{ key: 'ok', request: {} }] }));
      expect((await b!.get(round.id))?.requestState).toBe(lone);
      expect(await a!.answer(round.id, 1, 'ok', { action: 'accept' }, claimBy('a'))).toBe('claimed');
      const next = {
        requestState: `${lone}.2`,
        requests: [{ key: 'ok', request: {} }],
        deadline: T + 60_000,
      };
      expect(await a!.next(round.id, claimBy('a'), { ...next, deadline: Date.now() + 60_000 })).toBe(true);
      expect((await b!.get(round.id))?.requestState).toBe(`${lone}.2`);
      expect(await b!.answer(round.id, 2, 'ok', { action: 'accept' }, claimBy('a'))).toBe('claimed');
      expect(
        await a!.next(round.id, claimBy('a'), {
          ...next,
          requestState: STATE,
          deadline: Date.now() + 60_000,
        }),
      ).toBe(true);
      expect((await b!.get(round.id))?.requestState).toBe(STATE);
    });

    it('records a round that asks nothing claimed by its recorder, counted like any other, and taken over once its lease lapses', async () => {
      const [a, b] = await stores(open, 2);
      const shed = await a!.open(newRound({ requests: [], requestState: 's1', holder: 'a' }), claimBy('a'));
      expect(shed).toMatchObject({ status: 'claimed', claimant: 'a', leaseUntil: T + LEASE_MS, round: 1 });
      expect(await b!.get(shed.id)).toEqual(shed);
      expect(await b!.takeOver(claimBy('b', T + LEASE_MS - 1))).toEqual([]);
      const deadline = Date.now() + 60_000;
      const asks = [{ key: 'ok', request: { message: 'OK?' } }];
      expect(
        await a!.next(shed.id, claimBy('a', T + 1_000), { requestState: 's2', requests: asks, deadline }),
      ).toBe(true);
      expect(await b!.answer(shed.id, 2, 'ok', { action: 'accept' }, claimBy('a', T + 2_000))).toBe(
        'claimed',
      );
      expect(
        await a!.next(shed.id, claimBy('a', T + 3_000), { requestState: 's3', requests: [], deadline }),
      ).toBe(true);
      const third = await b!.get(shed.id);
      expect(third).toMatchObject({
        status: 'claimed',
        claimant: 'a',
        leaseUntil: T + 3_000 + LEASE_MS,
        round: 3,
      });
      expect(third).toMatchObject({ requests: [], answers: {}, requestState: 's3', holder: 'a' });
      // Its recorder died while the retry was out: a survivor sends that retry (s3, no answers), not an earlier one.
      const [taken] = await b!.takeOver(claimBy('b', T + 3_000 + LEASE_MS));
      expect(taken).toMatchObject({ id: shed.id, round: 3, requestState: 's3', answers: {}, claimant: 'b' });
      expect(await a!.next(shed.id, claimBy('a', T + 9_000), { requests: [], deadline })).toBe(false);
      expect(await b!.next(shed.id, claimBy('b', T + 9_000), { requests: asks, deadline })).toBe(true);
      expect(await a!.get(shed.id)).toMatchObject({ status: 'waiting', holder: 'b', round: 4 });
      expect(await a!.get(shed.id)).not.toHaveProperty('claimant');
    });

    it('keeps a round without requestState without one, and an empty one empty', async () => {
      const [store] = await stores(open, 1);
      const without = newRound();
      delete without.requestState;
      const none = await store!.open(without);
      expect(await store!.get(none.id)).not.toHaveProperty('requestState');
      const empty = await store!.open(newRound({ requestState: '' }));
      expect((await store!.get(empty.id))?.requestState).toBe('');
    });

    it('keeps answers already given while another is pending, the first answer to a key kept', async () => {
      const [a, b] = await stores(open, 2);
      const round = await a!.open(newRound());
      const name = { action: 'accept', content: { name: 'Ada' } };
      expect(await a!.answer(round.id, 1, 'name', name, claimBy('a'))).toBe('recorded');
      expect(await b!.answer(round.id, 1, 'name', { action: 'decline' }, claimBy('b'))).toBe('recorded');
      expect(await b!.get(round.id)).toMatchObject({ status: 'waiting', answers: { name } });
      expect(await b!.get(round.id)).not.toHaveProperty('claimant');
      expect(await b!.answer(round.id, 1, 'age', { action: 'cancel' }, claimBy('b'))).toBe('claimed');
      expect(await a!.get(round.id)).toMatchObject({
        status: 'claimed',
        claimant: 'b',
        leaseUntil: T + LEASE_MS,
        answers: { name, age: { action: 'cancel' } },
      });
    });

    it('claims a round exactly once when its last answers land on several replicas at once', async () => {
      const replicas = await stores(open, 4);
      const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
      const requests = keys.map((key) => ({ key, request: { method: 'elicitation/create' } }));
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const round = await replicas[0]!.open(newRound({ requests }));
        const recorded = await Promise.all(
          keys.map((key, i) =>
            replicas[i % replicas.length]!.answer(round.id, 1, key, { action: 'accept' }, claimBy(`r${i}`)),
          ),
        );
        expect(recorded.filter((r) => r === 'claimed')).toHaveLength(1);
        const again = await Promise.all(
          replicas.map((store, i) => store.answer(round.id, 1, 'a', { action: 'decline' }, claimBy(`x${i}`))),
        );
        expect(again).toEqual(replicas.map(() => 'recorded'));
      }
    });

    it('refuses an answer for another round, an unknown key, or a continuation that is gone', async () => {
      const [store] = await stores(open, 1);
      const round = await store!.open(newRound());
      expect(await store!.answer(round.id, 2, 'name', { action: 'accept' }, claimBy('a'))).toBe('stale');
      expect(await store!.answer(round.id, 1, 'colour', { action: 'accept' }, claimBy('a'))).toBe('stale');
      expect(await store!.answer('round_never', 1, 'name', { action: 'accept' }, claimBy('a'))).toBe(
        'missing',
      );
      expect((await store!.get(round.id))?.answers).toEqual({});
    });

    it('notes each request’s question for its round only', async () => {
      const [store] = await stores(open, 1);
      const round = await store!.open(newRound());
      expect(await store!.attachQuestion(round.id, 1, 'name', 'q-name')).toBe(true);
      expect(await store!.attachQuestion(round.id, 2, 'age', 'q-age')).toBe(false);
      expect(await store!.attachQuestion(round.id, 1, 'colour', 'q-colour')).toBe(false);
      expect((await store!.get(round.id))?.requests.map((r) => r.questionId)).toEqual(['q-name', undefined]);
    });

    it('lets a survivor take over a claim whose lease lapsed, and fences the old claimant out', async () => {
      const [a, b] = await stores(open, 2);
      const round = await a!.open(newRound({ requests: [{ key: 'ok', request: {} }] }));
      expect(await a!.answer(round.id, 1, 'ok', { action: 'accept' }, claimBy('a'))).toBe('claimed');
      expect(await b!.takeOver(claimBy('b', T + LEASE_MS - 1))).toEqual([]);
      expect(await a!.renew(round.id, claimBy('a', T + 1_000))).toBe(true);
      expect(await b!.takeOver(claimBy('b', T + LEASE_MS))).toEqual([]);
      const taken = await b!.takeOver(claimBy('b', T + 1_000 + LEASE_MS));
      expect(taken).toEqual([
        expect.objectContaining({
          id: round.id,
          status: 'claimed',
          claimant: 'b',
          answers: { ok: { action: 'accept' } },
        }),
      ]);
      expect(await a!.renew(round.id, claimBy('a', T + 7_000))).toBe(false);
      expect(await a!.next(round.id, claimBy('a'), { requests: [], deadline: Date.now() + 60_000 })).toBe(
        false,
      );
      expect(await a!.finish(round.id, 'a')).toBe(false);
      expect(await b!.finish(round.id, 'b')).toBe(true);
      expect(await a!.get(round.id)).toBeUndefined();
      expect(await a!.takeOver(claimBy('a', T + 100_000))).toEqual([]);
    });

    it('takes over a round whose answers are all in but that nobody claimed, and no round still waiting', async () => {
      const [a, b] = await stores(open, 2);
      const ready = await a!.open(newRound({ requests: [] }));
      const waiting = await a!.open(newRound());
      const taken = await b!.takeOver(claimBy('b'));
      expect(taken.map((r) => r.id)).toEqual([ready.id]);
      expect(await a!.takeOver(claimBy('a', T + 1))).toEqual([]);
      expect((await a!.get(waiting.id))?.status).toBe('waiting');
    });

    it('moves a claimed round on to the next one: new requests and state, old answers gone', async () => {
      const [a, b] = await stores(open, 2);
      const round = await a!.open(newRound({ requests: [{ key: 'name', request: {}, questionId: 'q1' }] }));
      expect(await a!.answer(round.id, 1, 'name', { action: 'accept' }, claimBy('a'))).toBe('claimed');
      const deadline = Date.now() + 30_000;
      const requests = [{ key: 'confirm', request: { message: 'Sure?' } }];
      expect(await b!.next(round.id, claimBy('b'), { requests, deadline })).toBe(false);
      expect(await a!.next(round.id, claimBy('a'), { requestState: 'second', requests, deadline })).toBe(
        true,
      );
      const second = await b!.get(round.id);
      expect(second).toEqual({
        ...newRound({ requests, deadline, round: 2, requestState: 'second' }),
        holder: 'a',
        id: round.id,
        status: 'waiting',
        answers: {},
      });
      expect(await b!.answer(round.id, 1, 'name', { action: 'accept' }, claimBy('b'))).toBe('stale');
      expect(await b!.answer(round.id, 2, 'confirm', { action: 'accept' }, claimBy('b'))).toBe('claimed');
      expect(await b!.next(round.id, claimBy('b'), { requests, deadline })).toBe(true);
      expect(await a!.get(round.id)).not.toHaveProperty('requestState');
      expect((await a!.get(round.id))?.round).toBe(3);
    });
    it('keeps the questions already asked of the next round, and writes nothing to a round that is gone', async () => {
      const [a] = await stores(open, 1);
      const round = await a!.open(newRound({ requests: [{ key: 'name', request: {} }] }));
      expect(await a!.answer(round.id, 1, 'name', { action: 'accept' }, claimBy('a'))).toBe('claimed');
      const deadline = Date.now() + 30_000;
      const requests = [
        { key: 'confirm', request: { message: 'Sure?' }, questionId: 'q-confirm' },
        { key: 'why', request: { message: 'Why?' } },
      ];
      expect(await a!.next(round.id, claimBy('a'), { requests, deadline })).toBe(true);
      expect((await a!.get(round.id))?.requests.map((r) => r.questionId)).toEqual(['q-confirm', undefined]);
      expect(await a!.answer(round.id, 2, 'confirm', { action: 'accept' }, claimBy('a'))).toBe('recorded');
      expect(await a!.answer(round.id, 2, 'why', { action: 'decline' }, claimBy('a'))).toBe('claimed');
      expect(await a!.finish(round.id, 'a')).toBe(true);
      expect(await a!.next(round.id, claimBy('a'), { requests, deadline })).toBe(false);
      expect(await a!.get(round.id)).toBeUndefined();
    });

    it('lets only a living holder claim its round, and the completing answer claim it anywhere once it is gone', async () => {
      const deployment = await open(2);
      const [a, b] = deployment.stores;
      await deployment.live('h', true);
      const held = await a!.open(newRound({ holder: 'h' }));
      expect(await b!.answer(held.id, 1, 'name', { action: 'decline' }, claimBy('b'))).toBe('recorded');
      expect(await b!.answer(held.id, 1, 'age', { action: 'decline' }, claimBy('b'))).toBe('recorded');
      expect(await b!.takeOver(claimBy('b'))).toEqual([]);
      expect(await a!.get(held.id)).toMatchObject({ status: 'waiting', holder: 'h' });
      expect(await a!.answer(held.id, 1, 'age', { action: 'accept' }, claimBy('h'))).toBe('claimed');
      expect((await b!.get(held.id))?.answers.age).toEqual({ action: 'decline' });

      const orphaned = await a!.open(newRound({ holder: 'gone' }));
      expect(await a!.answer(orphaned.id, 1, 'name', { action: 'decline' }, claimBy('a'))).toBe('recorded');
      expect(await b!.answer(orphaned.id, 1, 'age', { action: 'cancel' }, claimBy('b'))).toBe('claimed');
      expect(await a!.get(orphaned.id)).toMatchObject({ status: 'claimed', claimant: 'b' });
    });

    it('takes over a round whose answers all came while its holder lived, once the holder is gone', async () => {
      const deployment = await open(2);
      const [a, b] = deployment.stores;
      await deployment.live('h', true);
      const round = await a!.open(newRound({ holder: 'h' }));
      await b!.answer(round.id, 1, 'name', { action: 'decline' }, claimBy('b'));
      await b!.answer(round.id, 1, 'age', { action: 'decline' }, claimBy('b'));
      expect(await b!.takeOver(claimBy('b'))).toEqual([]);
      await deployment.live('h', false);
      const taken = await b!.takeOver(claimBy('b'));
      expect(taken).toEqual([expect.objectContaining({ id: round.id, status: 'claimed', claimant: 'b' })]);
    });

    it('never lets a holder take over its own waiting round, nor an answer given without a claim claim', async () => {
      const deployment = await open(2);
      const [a, b] = deployment.stores;
      await deployment.live('h', true);
      const round = await a!.open(newRound({ holder: 'h' }));
      expect(await a!.answer(round.id, 1, 'name', { action: 'decline' }, undefined)).toBe('recorded');
      expect(await a!.answer(round.id, 1, 'age', { action: 'decline' }, undefined)).toBe('recorded');
      // All answers in, unclaimed: the holder's own sweep leaves it to the holder's waiting call.
      expect(await a!.takeOver(claimBy('h'))).toEqual([]);
      await deployment.live('h', false);
      const orphaned = await a!.open(newRound({ holder: 'gone' }));
      await a!.answer(orphaned.id, 1, 'name', { action: 'decline' }, undefined);
      expect(await b!.answer(orphaned.id, 1, 'age', { action: 'decline' }, undefined)).toBe('recorded');
      expect(await a!.get(orphaned.id)).toMatchObject({ status: 'waiting' });
      expect(await a!.answer(round.id, 1, 'age', { action: 'accept' }, claimBy('h'))).toBe('claimed');
    });

    it('lets the holder of a round still waiting drop it (its call failed), and nobody else', async () => {
      const [a] = await stores(open, 1);
      const round = await a!.open(newRound({ holder: 'h' }));
      expect(await a!.finish(round.id, 'other')).toBe(false);
      expect(await a!.finish(round.id, 'h')).toBe(true);
      expect(await a!.get(round.id)).toBeUndefined();
    });

    it('finds the open round of an API call by its call id, on any replica, until the round finishes', async () => {
      const [a, b] = await stores(open, 2);
      const callId = `call_${Math.random().toString(36).slice(2)}`;
      await a!.open(newRound());
      const round = await a!.open(newRound({ origin: { userId: 'U1', callId }, holder: 'h' }));
      expect(await b!.ofCall(callId)).toEqual(round);
      expect(await b!.ofCall('call_other')).toBeUndefined();
      await a!.finish(round.id, 'h');
      expect(await b!.ofCall(callId)).toBeUndefined();
    });
  });
}
