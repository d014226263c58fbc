// Retention (the records' TTL itself is in question-record.test.ts): the answers in them are not kept longer
// than needed (an accepted answer's content goes once its holder has it; a paged form's draft once it ends).
import { describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { uniquePrefix } from '../setup/context.js';
import { collector, newQuestion, openStore, rawRedis } from './helpers.js';

describe('retention', () => {
  it("drops an accepted answer's content from the record once its holder has it and its card shows it, keeping the outcome", async () => {
    const prefix = uniquePrefix();
    const holder = await openStore(prefix, 'holder-a');
    const other = await openStore(prefix, 'holder-b');
    const redis = rawRedis();
    const seen = collector<Question>();
    await holder.startInbox((q) => seen.push(q));
    const q = await holder.create(newQuestion());
    // Its card is attached before the answer, so the finish's winner draws the answer (one that beats the attach
    // is kept for the card's poster: relay-store.contract.ts).
    await holder.attachCards(q.id, [{ channel: 'D1', ts: '1.000' }]);

    const content = { ok: true };
    const result = await other.finish(q.id, { action: 'accept', content }, 'answered');
    expect(result).toMatchObject({ won: true, question: { outcome: { action: 'accept', content } } });
    const [delivered] = await seen.next(1);
    expect(delivered?.outcome).toEqual({ action: 'accept', content });

    const stored = await redis.hget(`${prefix}:{q}:question:${q.id}`, 'outcome');
    expect(stored).toBe('{"action":"accept","contentDropped":true}');
    expect(await other.get(q.id)).toMatchObject({
      state: 'accepted',
      outcome: { action: 'accept', content: {} },
      contentDropped: true,
    });
    // A late submit still learns that it was answered.
    const late = await other.finish(q.id, { action: 'accept', content }, 'answered');
    expect(late).toMatchObject({ won: false, state: 'accepted' });
  });

  it("forgets every person's draft of a form when the question ends", async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const redis = rawRedis();
    const q = await store.create(newQuestion());
    const draft = { page: 0, answers: { ok: true }, reviewing: false };
    expect(await store.saveDraft(q.id, 'U1', draft)).toBe(true);
    expect(await store.saveDraft(q.id, 'U2', draft)).toBe(true);
    expect(await store.draft(q.id, 'U1')).toEqual(draft);
    await store.finish(q.id, { action: 'decline' }, 'declined');
    expect(await redis.hexists(`${prefix}:{q}:question:${q.id}`, 'draft:U1')).toBe(0);
    expect(await redis.hexists(`${prefix}:{q}:question:${q.id}`, 'draft:U2')).toBe(0);
  });
});
