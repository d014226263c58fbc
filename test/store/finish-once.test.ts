import { describe, expect, it } from 'vitest';
import type { Outcome, Question } from '../../src/relay/types.js';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore } from './helpers.js';

const outcomes: [Outcome, 'answered' | 'declined' | 'closed'][] = [
  [{ action: 'accept', content: { ok: true } }, 'answered'],
  [{ action: 'decline' }, 'declined'],
  [{ action: 'cancel' }, 'closed'],
];

describe('finish', () => {
  it('lets exactly one of 20 concurrent finishes from 3 stores win; the others see the final state', async () => {
    const prefix = uniquePrefix();
    const stores = await Promise.all(['a', 'b', 'c'].map((h) => openStore(prefix, `holder-${h}`)));
    const q = await stores[0]!.create(newQuestion());

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const [outcome, reason] = outcomes[i % 3]!;
        return stores[i % 3]!.finish(q.id, outcome, reason);
      }),
    );

    const winners = results.filter((r) => r.won);
    expect(winners).toHaveLength(1);
    const final = winners[0]!.won ? winners[0]!.question : undefined;
    expect(final?.state).not.toBe('pending');
    for (const r of results.filter((r) => !r.won)) {
      expect(r).toMatchObject({ won: false, state: final?.state, question: { outcome: final?.outcome } });
    }
    expect(await stores[1]!.get(q.id)).toEqual(final);
  });

  it('maps each outcome to its state and keeps the reason', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    const states = [];
    for (const [outcome, reason] of outcomes) {
      const q = await store.create(newQuestion());
      const result = await store.finish(q.id, outcome, reason);
      expect(result).toMatchObject({ won: true, question: { outcome, reason } });
      states.push(result.won ? result.question.state : undefined);
    }
    expect(states).toEqual(['accepted', 'declined', 'cancelled']);
  });

  it('reports missing for an id that was never created', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    expect(await store.finish('never-created', { action: 'cancel' }, 'timed_out')).toEqual({
      won: false,
      state: 'missing',
    });
  });

  it("delivers a won question to its holder's inbox exactly once, and nothing to another holder", async () => {
    const prefix = uniquePrefix();
    const [a, b] = await Promise.all([openStore(prefix, 'holder-a'), openStore(prefix, 'holder-b')]);
    const atA = collector<Question>();
    const atB = collector<Question>();
    await a.startInbox((q) => atA.push(q));
    await b.startInbox((q) => atB.push(q));

    const first = await a.create(newQuestion());
    await Promise.all([
      b.finish(first.id, { action: 'decline' }, 'declined'),
      a.finish(first.id, { action: 'cancel' }, 'closed'),
      b.finish(first.id, { action: 'decline' }, 'declined'),
    ]);
    const [delivered] = await atA.next(1);
    expect(delivered).toEqual(await a.get(first.id));

    // Later deliveries on each inbox prove nothing else arrived before them.
    const ofB = await b.create(newQuestion());
    await a.finish(ofB.id, { action: 'decline' }, 'declined');
    expect((await atB.next(1)).map((q) => q.id)).toEqual([ofB.id]);
    const second = await a.create(newQuestion());
    await b.finish(second.id, { action: 'accept', content: { ok: false } }, 'answered');
    expect((await atA.next(2)).map((q) => q.id)).toEqual([first.id, second.id]);
  });

  it('delivers outcomes that reached the inbox before the holder started reading', async () => {
    const prefix = uniquePrefix();
    const a = await openStore(prefix, 'holder-a');
    const q1 = await a.create(newQuestion());
    const q2 = await a.create(newQuestion());
    await a.finish(q1.id, { action: 'decline' }, 'declined');
    await a.finish(q2.id, { action: 'cancel' }, 'withdrawn');

    const restarted = await openStore(prefix, 'holder-a');
    const seen = collector<Question>();
    await restarted.startInbox((q) => seen.push(q));
    expect((await seen.next(2)).map((q) => [q.id, q.reason])).toEqual([
      [q1.id, 'declined'],
      [q2.id, 'withdrawn'],
    ]);
  });
});
