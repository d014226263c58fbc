// A person answers a question whose holder (the replica holding the MCP call that asked) died: its lease has
// lapsed, and the orphan sweep has not ended the question yet. Nobody can receive that answer, so the finish
// ends the question as the sweep would (cancel, holder_lost) instead of recording an answer that goes nowhere;
// the answerer's reply and the card say so. Questions whose holder never took a lease (not in the holders set),
// detached (API) questions and a live holder's are answered as always.
import { describe, expect, it } from 'vitest';
import { uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore, rawRedis } from './helpers.js';

/** A lease long enough that it never lapses during a test unless the test removes it. */
const steady = { ttlMs: 60_000, renewEveryMs: 20_000 };
const accept = { action: 'accept', content: { ok: true } } as const;

/** A question held by a replica that died: its lease lapsed (deleted here, without waiting for its TTL). */
async function questionOfDeadHolder() {
  const prefix = uniquePrefix();
  const [holder, other] = [await openStore(prefix, 'holder-a'), await openStore(prefix, 'holder-b')];
  await holder.startLease(steady);
  const question = await holder.create(newQuestion());
  holder.stopLease();
  await rawRedis().del(`${prefix}:{q}:lease:holder-a`);
  return { question, other };
}

describe("a person's answer to a question whose holder died", () => {
  it('ends it as holder_lost, once the holder’s lease has lapsed, instead of recording the answer', async () => {
    const { question, other } = await questionOfDeadHolder();
    const result = await other.finish(question.id, accept, 'answered', 'U123');
    expect(result).toMatchObject({
      won: true,
      question: { state: 'cancelled', reason: 'holder_lost', outcome: { action: 'cancel' } },
    });
    expect(result.won && result.question.endedBy).toBeUndefined();
  });

  it('records the answer while the holder is alive, or when it never took a lease', async () => {
    const prefix = uniquePrefix();
    const [alive, leaseless, other] = [
      await openStore(prefix, 'holder-a'),
      await openStore(prefix, 'holder-c'),
      await openStore(prefix, 'holder-b'),
    ];
    await alive.startLease(steady);
    for (const holder of [alive, leaseless]) {
      const question = await holder.create(newQuestion());
      const result = await other.finish(question.id, accept, 'answered', 'U123');
      expect(result).toMatchObject({ won: true, question: { state: 'accepted', reason: 'answered' } });
    }
  });

  it('leaves an end that is no person’s act as it is (a withdrawal)', async () => {
    const { question, other } = await questionOfDeadHolder();
    const result = await other.finish(question.id, { action: 'cancel' }, 'withdrawn');
    expect(result).toMatchObject({ won: true, question: { state: 'cancelled', reason: 'withdrawn' } });
  });
});
