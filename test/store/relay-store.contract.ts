// The RelayStore contract, one suite run against every implementation (as BullMQ's adapter conformance
// tests do): relay-store.memory.test.ts and relay-store.redis.test.ts each call relayStoreContract.
import { describe, expect, it } from 'vitest';
import type { RelayStore } from '../../src/relay/relay.js';
import type { Outcome, Question } from '../../src/relay/types.js';
import { collector, newQuestion } from './helpers.js';

/** A RelayStore as one replica sees it, with the inbox through which its holder learns outcomes. */
export type ContractStore = RelayStore & {
  startInbox(onOutcome: (question: Question) => void): Promise<void>;
};

/** Opens one store per holder id, all over one shared state (one deployment); the caller closes them. */
export type OpenStores = (holderIds: string[]) => Promise<ContractStore[]>;

const outcomes: [Outcome, 'answered' | 'declined' | 'closed'][] = [
  [{ action: 'accept', content: { ok: true } }, 'answered'],
  [{ action: 'decline' }, 'declined'],
  [{ action: 'cancel' }, 'closed'],
];

async function one(open: OpenStores): Promise<ContractStore> {
  const [store] = await open(['holder-a']);
  if (!store) throw new Error('no store opened');
  return store;
}

export function relayStoreContract(name: string, open: OpenStores): void {
  describe(`RelayStore contract: ${name}`, () => {
    it('creates a pending question held by its creator and reads it back', async () => {
      const store = await one(open);
      const q = await store.create(newQuestion({ timeoutMs: 30_000 }));
      expect(q).toMatchObject({
        ...newQuestion({ timeoutMs: 30_000 }),
        state: 'pending',
        holder: 'holder-a',
      });
      expect(q.deadline - q.createdAt).toBe(30_000);
      expect(await store.get(q.id)).toEqual(q);
      expect(await store.get('never-created')).toBeUndefined();
    });

    it('keeps the card on the question and ignores a card for a question that does not exist', async () => {
      const store = await one(open);
      const q = await store.create(newQuestion());
      expect(await store.attachCards(q.id, [{ channel: 'D1', ts: '1.000' }])).toBe('pending');
      expect(await store.attachCards('never-created', [{ channel: 'D1', ts: '2.000' }])).toBe('missing');
      expect((await store.get(q.id))?.card).toEqual({ channel: 'D1', ts: '1.000' });
      expect(await store.get('never-created')).toBeUndefined();
    });

    it('keeps every card of a question asked in several places, the first as its card; one card has no others', async () => {
      const store = await one(open);
      const [several, single] = [await store.create(newQuestion()), await store.create(newQuestion())];
      const cards = [
        { channel: 'G1', ts: '1.000' },
        { channel: 'G2', ts: '2.000' },
        { channel: 'D3', ts: '3.000' },
      ] as const;
      expect(await store.attachCards(several.id, [cards[0], cards[1], cards[2]])).toBe('pending');
      await store.attachCards(single.id, [cards[0]]);
      await store.finish(several.id, { action: 'decline' }, 'declined', 'U7');
      expect(await store.get(several.id)).toMatchObject({ card: cards[0], moreCards: [cards[1], cards[2]] });
      expect((await store.get(single.id))?.moreCards).toBeUndefined();
    });

    it('tells the card attacher that the question ended first, so the card still gets its update', async () => {
      const store = await one(open);
      const q = await store.create(newQuestion());
      await store.finish(q.id, { action: 'decline' }, 'declined', 'U7');
      expect(await store.attachCards(q.id, [{ channel: 'D1', ts: '1.000' }])).toBe('declined');
      expect(await store.get(q.id)).toMatchObject({ card: { channel: 'D1', ts: '1.000' }, endedBy: 'U7' });
    });

    it('tells an attach tried again whether the question ended before its cards (the attacher updates them) or after (its winner did)', async () => {
      const store = await one(open);
      const [endedFirst, attachedFirst] = [
        await store.create(newQuestion()),
        await store.create(newQuestion()),
      ];
      const card = { channel: 'D1', ts: '1.000' };
      await store.finish(endedFirst.id, { action: 'decline' }, 'declined', 'U7');
      expect(await store.attachCards(endedFirst.id, [card])).toBe('declined');
      expect(await store.attachCards(endedFirst.id, [card])).toBe('declined');
      expect(await store.attachCards(attachedFirst.id, [card])).toBe('pending');
      await store.finish(attachedFirst.id, { action: 'decline' }, 'declined', 'U7');
      expect(await store.attachCards(attachedFirst.id, [card])).toBe('ended_with_card');
      expect(await store.get(attachedFirst.id)).toMatchObject({ card, state: 'declined' });
    });

    it('stores who ended a question and when; a timeout names nobody', async () => {
      const store = await one(open);
      const [byPerson, byTimer] = [await store.create(newQuestion()), await store.create(newQuestion())];
      const ended = await store.finish(byPerson.id, { action: 'cancel' }, 'closed', 'U9');
      await store.finish(byTimer.id, { action: 'cancel' }, 'timed_out');
      expect(ended).toMatchObject({ won: true, question: { endedBy: 'U9' } });
      const read = await store.get(byPerson.id);
      expect(read?.endedAt).toBeGreaterThanOrEqual(byPerson.createdAt);
      expect(read?.endedBy).toBe('U9');
      expect(await store.get(byTimer.id)).not.toHaveProperty('endedBy');
    });

    it('lets exactly one of many concurrent finishes from two replicas win; the rest see the final state', async () => {
      const stores = await open(['holder-a', 'holder-b']);
      const q = await stores[0]!.create(newQuestion());
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => {
          const [outcome, reason] = outcomes[i % 3]!;
          return stores[i % 2]!.finish(q.id, outcome, reason);
        }),
      );
      const winners = results.flatMap((r) => (r.won ? [r.question] : []));
      expect(winners).toHaveLength(1);
      for (const r of results.filter((r) => !r.won)) {
        expect(r).toMatchObject({
          won: false,
          state: winners[0]?.state,
          question: { outcome: winners[0]?.outcome },
        });
      }
      expect(await stores[1]!.get(q.id)).toEqual(winners[0]);
    });

    it('maps each outcome to its state, keeps the reason, and reports missing for an unknown id', async () => {
      const store = await one(open);
      const states = [];
      for (const [outcome, reason] of outcomes) {
        const q = await store.create(newQuestion());
        const result = await store.finish(q.id, outcome, reason);
        expect(result).toMatchObject({ won: true, question: { outcome, reason } });
        states.push(result.won ? result.question.state : undefined);
      }
      expect(states).toEqual(['accepted', 'declined', 'cancelled']);
      expect(await store.finish('never-created', { action: 'cancel' }, 'timed_out')).toEqual({
        won: false,
        state: 'missing',
      });
    });

    it("keeps each person's draft while the question is pending and forgets them when it ends", async () => {
      const store = await one(open);
      const q = await store.create(newQuestion());
      const ada = { page: 1, answers: { name: 'Ada', tags: ['a', 'b'] }, reviewing: false };
      const bob = { page: 0, answers: { name: 'Bob' }, reviewing: true };
      expect(await store.saveDraft(q.id, 'U1', ada)).toBe(true);
      expect(await store.saveDraft(q.id, 'U2', bob)).toBe(true);
      expect(await store.draft(q.id, 'U1')).toEqual(ada);
      expect(await store.draft(q.id, 'U2')).toEqual(bob);
      expect(await store.draft(q.id, 'U3')).toBeUndefined();
      await store.finish(q.id, { action: 'decline' }, 'declined');
      expect(await store.saveDraft(q.id, 'U1', { ...ada, answers: { name: 'late' } })).toBe(false);
      expect(await store.draft(q.id, 'U1')).toBeUndefined();
      expect(await store.draft(q.id, 'U2')).toBeUndefined();
      expect(await store.saveDraft('never-created', 'U1', ada)).toBe(false);
    });

    it('admits max new questions per server and window, then refuses with rate_limited and a retry delay', async () => {
      const store = await one(open);
      const rateLimit = { max: 2, perMs: 60_000 };
      await store.create(newQuestion(), { rateLimit });
      await store.create(newQuestion(), { rateLimit });
      const refused = store.create(newQuestion(), { rateLimit });
      await expect(refused).rejects.toMatchObject({ name: 'RateLimitedError', code: 'rate_limited' });
      const retryAfterMs = await refused.catch((err: { retryAfterMs: number }) => err.retryAfterMs);
      expect(retryAfterMs).toBeGreaterThan(0);
      expect(retryAfterMs).toBeLessThanOrEqual(60_000);
      await expect(store.create(newQuestion({ server: 'other' }), { rateLimit })).resolves.toMatchObject({
        server: 'other',
      });
    });

    it("delivers each outcome once to its holder's inbox only, then keeps no accepted content of a question whose card its winner updated", async () => {
      const [a, b] = await open(['holder-a', 'holder-b']);
      const atA = collector<Question>();
      const atB = collector<Question>();
      const q = await a!.create(newQuestion());
      // Attached before the answer: the finish's winner has the card and draws the answer from its own reply.
      await a!.attachCards(q.id, [{ channel: 'D1', ts: '1.000' }]);
      const ofB = await b!.create(newQuestion());
      await b!.finish(q.id, { action: 'accept', content: { ok: true } }, 'answered');
      await a!.finish(q.id, { action: 'cancel' }, 'closed');
      await a!.startInbox((question) => atA.push(question));
      await b!.startInbox((question) => atB.push(question));
      const [delivered] = await atA.next(1);
      expect(delivered).toMatchObject({ id: q.id, outcome: { action: 'accept', content: { ok: true } } });

      // A later delivery on each inbox proves nothing else arrived before it.
      await a!.finish(ofB.id, { action: 'decline' }, 'declined');
      expect((await atB.next(1)).map((question) => question.id)).toEqual([ofB.id]);
      const second = await b!.create(newQuestion());
      await b!.finish(second.id, { action: 'decline' }, 'declined');
      await atB.next(2);
      expect(atA.values.map((question) => question.id)).toEqual([q.id]);
      // Read back as content {}, and marked, so that the API never shows that {} as the answer.
      expect(await a!.get(q.id)).toMatchObject({
        outcome: { action: 'accept', content: {} },
        contentDropped: true,
      });
    });

    it("keeps an API call's question's accepted content once its holder has it: the call's client reads it", async () => {
      const [a, b] = await open(['holder-a', 'holder-b']);
      const atA = collector<Question>();
      await a!.startInbox((question) => atA.push(question));
      const q = await a!.create(newQuestion({ origin: { userId: 'U123', callId: 'call_1' } }));
      await b!.finish(q.id, { action: 'accept', content: { ok: true } }, 'answered');
      await atA.next(1);
      // A later delivery proves the first one was acknowledged (its content would be dropped by then).
      const later = await a!.create(newQuestion());
      await a!.attachCards(later.id, [{ channel: 'D1', ts: '2.000' }]);
      await b!.finish(later.id, { action: 'accept', content: { ok: false } }, 'answered');
      await atA.next(2);
      const kept = await b!.get(q.id);
      expect(kept?.outcome).toEqual({ action: 'accept', content: { ok: true } });
      expect(kept).not.toHaveProperty('contentDropped');
      expect(await b!.get(later.id)).toMatchObject({ outcome: { content: {} }, contentDropped: true });
    });

    it('keeps a round question’s accepted content once its holder has it: another replica records it in the round', async () => {
      const [a, b] = await open(['holder-a', 'holder-b']);
      const atA = collector<Question>();
      await a!.startInbox((question) => atA.push(question));
      const round = { id: 'round_1', round: 2, keys: ['name', 'age'] };
      const q = await a!.create(newQuestion({ round }));
      expect(await b!.get(q.id)).toMatchObject({ round });
      await b!.finish(q.id, { action: 'accept', content: { name: 'Ada' } }, 'answered');
      const [delivered] = await atA.next(1);
      expect(delivered).toMatchObject({ round, outcome: { action: 'accept', content: { name: 'Ada' } } });
      // A later delivery proves the first one was acknowledged (its content would be dropped by then).
      const later = await a!.create(newQuestion());
      await b!.finish(later.id, { action: 'decline' }, 'declined');
      await atA.next(2);
      expect((await b!.get(q.id))?.outcome).toEqual({ action: 'accept', content: { name: 'Ada' } });
    });

    describe("an answer that beats its card's attach (its winner saw no card; the poster draws the end)", () => {
      const card = { channel: 'D1', ts: '1.000' };
      const answer: Outcome = { action: 'accept', content: { ok: true } };

      /** Two replicas: holder-a holds `q`, holder-b answers it; `acked()` resolves once a's inbox acknowledged it. */
      async function raced(open: OpenStores) {
        const [a, b] = await open(['holder-a', 'holder-b']);
        const atA = collector<Question>();
        const q = await a!.create(newQuestion());
        let handed = 0;
        /** A later end handed over proves the batches before it were acknowledged (the ack goes with the next read). */
        const acked = async () => {
          await a!.startInbox((question) => atA.push(question));
          const later = await a!.create(newQuestion());
          await b!.finish(later.id, { action: 'decline' }, 'declined');
          handed += 2;
          await atA.next(handed);
        };
        return { a: a!, b: b!, q, acked };
      }

      it('keeps the answer for the ended card when the holder acknowledges it before the card is attached', async () => {
        const { b, q, acked } = await raced(open);
        await b.finish(q.id, answer, 'answered', 'U123');
        await acked();
        expect(await b.attachCards(q.id, [card])).toBe('accepted');
        const drawn = await b.get(q.id);
        expect(drawn?.outcome).toEqual(answer);
        expect(drawn).not.toHaveProperty('contentDropped');
        // Its card shows the end now: the answer's content is no longer kept.
        await b.endShownOnCards(q.id);
        expect(await b.get(q.id)).toMatchObject({
          outcome: { action: 'accept', content: {} },
          contentDropped: true,
        });
      });

      it("keeps the answer for the ended card when the holder acknowledges it between the attach and the poster's read", async () => {
        const { b, q, acked } = await raced(open);
        await b.finish(q.id, answer, 'answered', 'U123');
        expect(await b.attachCards(q.id, [card])).toBe('accepted');
        await acked();
        expect((await b.get(q.id))?.outcome).toEqual(answer);
        await b.endShownOnCards(q.id);
        expect(await b.get(q.id)).toMatchObject({ contentDropped: true });
      });

      it("drops the answer at the holder's acknowledgement when the poster showed the end before it", async () => {
        const { b, q, acked } = await raced(open);
        await b.finish(q.id, answer, 'answered', 'U123');
        expect(await b.attachCards(q.id, [card])).toBe('accepted');
        await b.endShownOnCards(q.id);
        // The holder has not handed the answer over yet: it is still there for it.
        expect((await b.get(q.id))?.outcome).toEqual(answer);
        await acked();
        expect(await b.get(q.id)).toMatchObject({ contentDropped: true });
      });

      it('keeps the answer of a question whose content is kept anyway, and ignores a question that is gone', async () => {
        const [a, b] = await open(['holder-a', 'holder-b']);
        const q = await a!.create(newQuestion({ origin: { userId: 'U123', callId: 'call_1' } }));
        await b!.finish(q.id, answer, 'answered');
        await b!.attachCards(q.id, [card]);
        await b!.endShownOnCards(q.id);
        expect((await b!.get(q.id))?.outcome).toEqual(answer);
        await expect(b!.endShownOnCards('never-created')).resolves.toBeUndefined();
        expect(await b!.get('never-created')).toBeUndefined();
      });
    });
  });
}
