// The answering service acting on its decisions: one reply per act, the draft stored with the question, the
// question ended through Relay.end with the reply before the card, and a reply in time whatever the store does.
import { describe, expect, it, vi } from 'vitest';
import type { Reply } from '../../src/answering/service.js';
import { StoreError } from '../../src/redis/index.js';
import { BACKSTOP_GRACE_MS } from '../../src/relay/grace.js';
import type { RelayStore } from '../../src/relay/relay.js';
import type { Draft, EndReason, FinishResult, Outcome, Question } from '../../src/relay/types.js';
import { answeringWith, manualClock } from '../support/answering.js';
import { question } from '../support/question.js';
import { deferred } from '../support/deferred.js';

const SCHEMA = { type: 'object', properties: { note: { type: 'string' } } };
const QUESTION: Question = question({ requestedSchema: SCHEMA });
const ACTOR = { user: { id: 'U1' } };

class MemoryParts implements Pick<RelayStore, 'get' | 'draft' | 'saveDraft'> {
  drafts = new Map<string, Draft>();
  /** When set, get waits for it (Redis hung). */
  hang: Promise<void> | undefined;
  events: string[] = [];
  /** Draft reads asked for so far. */
  draftReads = 0;
  /** When set, an end's finish waits for it after it was sent (Redis slow to apply and answer it). */
  finishing: Promise<void> | undefined;
  /** When set, an end wins with this reason instead (the store turned it: its holder had died). */
  endsAs: EndReason | undefined;
  /** When set, an end's finish fails with it once sent (Redis refused it, or the connection dropped). */
  finishFails: Error | undefined;

  async get(): Promise<Question | undefined> {
    await this.hang;
    return QUESTION;
  }
  draft(_id: string, userId: string): Promise<Draft | undefined> {
    this.draftReads++;
    return Promise.resolve(this.drafts.get(userId));
  }
  saveDraft(_id: string, userId: string, draft: Draft): Promise<boolean> {
    this.events.push('saveDraft');
    this.drafts.set(userId, draft);
    return Promise.resolve(true);
  }
}

function setUp() {
  const store = new MemoryParts();
  const clock = manualClock();
  const ended: Outcome[] = [];
  const relay = {
    end: async (
      _id: string,
      outcome: Outcome,
      reason: EndReason,
      options: { beforeCard?: (r: FinishResult) => Promise<void> } = {},
    ): Promise<FinishResult> => {
      ended.push(outcome);
      await store.finishing;
      if (store.finishFails !== undefined) throw store.finishFails;
      const endedAs = { ...QUESTION, state: 'accepted' as const, outcome, reason: store.endsAs ?? reason };
      const result: FinishResult = { won: true, question: endedAs };
      await options.beforeCard?.(result);
      store.events.push('card');
      return result;
    },
  };
  const answering = answeringWith({ store, relay, clock }, { review: 'always', onClose: 'cancel' });
  const replies: Reply[] = [];
  const reply = (r: Reply): Promise<void> => {
    replies.push(r);
    store.events.push(`reply:${r.kind}`);
    return Promise.resolve();
  };
  return { store, clock, ended, answering, replies, reply };
}

const values = { f0_note: { f0_note: { type: 'plain_text_input', value: 'hello' } } };

describe('the answering service', () => {
  it('keeps the reviewed answers in the draft, then Send relays them with the reply before the card', async () => {
    const { answering, replies, reply, store, ended } = setUp();
    const blockIds = Object.keys(values);
    await answering.act('Q1', ACTOR, { kind: 'submit', values, shownBlockIds: blockIds }, { reply });
    expect(replies).toMatchObject([
      { kind: 'review', draft: { answers: { note: 'hello' }, reviewing: true } },
    ]);
    expect(store.drafts.get('U1')?.reviewing).toBe(true);
    await answering.act('Q1', ACTOR, { kind: 'send' }, { reply });
    expect(ended).toEqual([{ action: 'accept', content: { note: 'hello' } }]);
    expect(store.events).toEqual(['saveDraft', 'reply:review', 'reply:finished', 'card']);
  });

  it('replies "not recorded" when the store does not answer in time, and writes nothing afterwards', async () => {
    const { answering, replies, reply, store, clock, ended } = setUp();
    const { promise: hang, resolve: resume } = deferred();
    store.hang = hang;
    const acting = answering.act('Q1', ACTOR, { kind: 'decline' }, { reply });
    clock.fire();
    expect(replies).toEqual([{ kind: 'not_recorded' }]);
    resume();
    await acting;
    expect(replies).toEqual([{ kind: 'not_recorded' }]);
    expect(ended).toEqual([]);
  });

  it('replies "unconfirmed", never "not recorded", when the reply bound passes while the end is with Redis', async () => {
    const { answering, replies, reply, store, clock, ended } = setUp();
    // The finish has gone to Redis (slowed by a restart), which applies it after the bound: the person must not
    // have been told it was NOT recorded.
    const { promise: finishing, resolve: applied } = deferred();
    store.finishing = finishing;
    const acting = answering.act('Q1', ACTOR, { kind: 'decline' }, { reply });
    await vi.waitFor(() => expect(ended).toEqual([{ action: 'decline' }]));
    clock.fire();
    expect(replies).toEqual([{ kind: 'unconfirmed' }]);
    applied();
    await acting;
    expect(replies).toEqual([{ kind: 'unconfirmed' }]);
  });

  it('replies "unconfirmed" when the draft was sent to Redis and the store then fails', async () => {
    const { answering, replies, reply, store } = setUp();
    const cut = new Error('Redis connection lost during saveDraft');
    store.saveDraft = () => Promise.reject(cut);
    const blockIds = Object.keys(values);
    await expect(
      answering.act('Q1', ACTOR, { kind: 'submit', values, shownBlockIds: blockIds }, { reply }),
    ).rejects.toBe(cut);
    expect(replies).toEqual([{ kind: 'unconfirmed' }]);
  });

  it('replies "not recorded" when Redis refused the write for memory (its OOM code), "unconfirmed" when the connection dropped', async () => {
    const { answering, replies, reply, store } = setUp();
    const refused = new StoreError('redis_out_of_memory', 'Redis refused finish: out of memory');
    store.finishFails = refused;
    await expect(answering.act('Q1', ACTOR, { kind: 'decline' }, { reply })).rejects.toBe(refused);
    const dropped = new StoreError('redis_unavailable', 'Redis unavailable during finish');
    store.finishFails = dropped;
    await expect(answering.act('Q1', ACTOR, { kind: 'decline' }, { reply })).rejects.toBe(dropped);
    const draftRefused = new StoreError('redis_out_of_memory', 'Redis refused saveDraft: out of memory');
    store.saveDraft = () => Promise.reject(draftRefused);
    const submit = { kind: 'submit', values, shownBlockIds: Object.keys(values) } as const;
    await expect(answering.act('Q1', ACTOR, submit, { reply })).rejects.toBe(draftRefused);
    expect(replies).toEqual([{ kind: 'not_recorded' }, { kind: 'unconfirmed' }, { kind: 'not_recorded' }]);
  });

  it("asks for the person's draft beside the question, not once the question has come back", async () => {
    const { answering, replies, reply, store } = setUp();
    const { promise: hang, resolve: resume } = deferred();
    store.hang = hang;
    const blockIds = Object.keys(values);
    const acting = answering.act('Q1', ACTOR, { kind: 'submit', values, shownBlockIds: blockIds }, { reply });
    // The question's read has not answered, and the draft's is already out.
    expect(store.draftReads).toBe(1);
    resume();
    await acting;
    expect(store.draftReads).toBe(1);
    expect(replies).toMatchObject([{ kind: 'review', draft: { answers: { note: 'hello' } } }]);
  });

  it('passes on a "not recorded" reply that failed to go out from its timer, instead of leaving it unhandled', async () => {
    const { answering, store, clock } = setUp();
    const { promise: hang, resolve: resume } = deferred();
    store.hang = hang;
    const late = new Error('Slack was already answered');
    const acting = answering.act('Q1', ACTOR, { kind: 'decline' }, { reply: () => Promise.reject(late) });
    clock.fire();
    resume();
    await expect(acting).rejects.toBe(late);
  });

  it('refuses an act on a question that is gone', async () => {
    const { answering, replies, reply, store } = setUp();
    store.get = () => Promise.resolve(undefined);
    await answering.act('Q-gone', ACTOR, { kind: 'decline' }, { reply });
    expect(replies).toEqual([{ kind: 'refuse', refusal: { ended: 'missing' } }]);
  });

  it('tells a person whose answer the store ended as holder_lost (its holder had died) that it was not delivered', async () => {
    const { answering, replies, reply, store } = setUp();
    store.endsAs = 'holder_lost';
    await answering.act('Q1', ACTOR, { kind: 'decline' }, { reply });
    expect(replies).toEqual([{ kind: 'refuse', refusal: { ended: 'accepted', reason: 'holder_lost' } }]);
  });

  it('refuses an act on a question still pending 5 s past its deadline, ending nothing', async () => {
    const { answering, replies, reply, clock, ended } = setUp();
    clock.now = () => QUESTION.deadline + BACKSTOP_GRACE_MS;
    await answering.act('Q1', ACTOR, { kind: 'decline' }, { reply });
    expect(replies).toEqual([{ kind: 'refuse', refusal: { ended: 'cancelled' } }]);
    expect(ended).toEqual([]);
  });

  it('replies "not recorded" when the store fails, and passes the error on', async () => {
    const { answering, replies, reply, store } = setUp();
    const down = new Error('Redis unavailable during get');
    store.get = () => Promise.reject(down);
    await expect(answering.act('Q1', ACTOR, { kind: 'decline' }, { reply })).rejects.toBe(down);
    expect(replies).toEqual([{ kind: 'not_recorded' }]);
  });
});
