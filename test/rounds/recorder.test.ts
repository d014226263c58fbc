// The ended stream's `rounds` handler: a round question's end is recorded in its round on whichever replica
// reads it, and the end completing the round of a holder that is gone claims the retry and resumes the call.
import { describe, expect, it } from 'vitest';
import { roundAnswersOf } from '../../src/mcp/index.js';
import type { Question } from '../../src/relay/types.js';
import { question } from '../support/question.js';
import {
  MemoryRoundStore,
  MemoryRounds,
  roundRecorder,
  type NewRound,
  type ResumedCall,
} from '../../src/rounds/index.js';

const SCHEMA = { type: 'object', properties: { n: { type: 'integer', default: 7 } } };
const CONFIRM = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

function newRound(holder: string): NewRound {
  const ask = (message: string) => ({
    method: 'elicitation/create',
    params: { message, requestedSchema: CONFIRM },
  });
  return {
    server: 'modern',
    tool: 'counted',
    args: {},
    origin: { userId: 'U1' },
    requestState: 'sealed',
    requests: [
      { key: 'a', request: ask('First?') },
      { key: 'b', request: ask('Second?') },
    ],
    round: 1,
    deadline: Date.now() + 60_000,
    holder,
  };
}

function ended(id: string, roundId: string, keys: string[], outcome: Question['outcome']): Question {
  return question({
    id,
    server: 'modern',
    message: keys.join(', '),
    requestedSchema: SCHEMA,
    state: outcome?.action === 'accept' ? 'accepted' : 'declined',
    holder: 'starter',
    round: { id: roundId, round: 1, keys },
    ...(outcome === undefined ? {} : { outcome }),
  });
}

function recorder(shared: MemoryRounds, questions: Map<string, Question>, claimant = 'survivor') {
  const store = new MemoryRoundStore(shared);
  const resumed: ResumedCall[] = [];
  const handle = roundRecorder({
    store,
    claimant,
    clock: { now: () => 1_000 },
    question: (id) => Promise.resolve(questions.get(id)),
    answersOf: roundAnswersOf,
    resume: (call) => Promise.resolve(resumed.push(call)),
    logger: { warn: () => undefined },
  });
  return { store, resumed, handle };
}

describe('round recorder', () => {
  it('records a round question’s end as the MCP side answers it, and leaves the claim to a living holder', async () => {
    const shared = new MemoryRounds();
    shared.alive.add('starter');
    const questions = new Map<string, Question>();
    const { store, resumed, handle } = recorder(shared, questions);
    const round = await store.open(newRound('starter'));
    questions.set('q-a', ended('q-a', round.id, ['a'], { action: 'accept', content: {} }));
    questions.set('q-b', ended('q-b', round.id, ['b'], { action: 'decline' }));
    questions.set('q-plain', {
      ...ended('q-plain', round.id, ['a'], { action: 'decline' }),
      round: undefined,
    });

    await handle({ id: 'q-plain', kind: 'question' });
    await handle({ id: 'q-a', kind: 'call', round: true });
    expect((await store.get(round.id))?.answers).toEqual({});
    await handle({ id: 'q-a', kind: 'question', round: true });
    await handle({ id: 'q-b', kind: 'question', round: true });

    expect(await store.get(round.id)).toMatchObject({
      status: 'waiting',
      answers: { a: { action: 'accept', content: { n: 7 } }, b: { action: 'decline' } },
    });
    expect(resumed).toEqual([]);
  });

  it('on the round’s own holder, records its ends but leaves the claim to the holder’s waiting call', async () => {
    const shared = new MemoryRounds();
    shared.alive.add('starter');
    const questions = new Map<string, Question>();
    const { store, resumed, handle } = recorder(shared, questions, 'starter');
    const round = await store.open(newRound('starter'));
    questions.set('q-a', ended('q-a', round.id, ['a'], { action: 'decline' }));
    questions.set('q-b', ended('q-b', round.id, ['b'], { action: 'decline' }));

    await handle({ id: 'q-a', kind: 'question', round: true });
    await handle({ id: 'q-b', kind: 'question', round: true });
    expect(resumed).toEqual([]);
    expect(await store.get(round.id)).toMatchObject({
      status: 'waiting',
      answers: { a: { action: 'decline' }, b: { action: 'decline' } },
    });
    // The call waiting on the round (the keeper) records the same end from its inbox and claims the retry.
    const claim = { claimant: 'starter', now: 1_000, leaseMs: 15_000 };
    expect(await store.answer(round.id, 1, 'b', { action: 'decline' }, claim)).toBe('claimed');
  });

  it('claims and resumes, once, the round its end completes when the holder is gone', async () => {
    const shared = new MemoryRounds();
    const questions = new Map<string, Question>();
    const { store, resumed, handle } = recorder(shared, questions);
    const round = await store.open(newRound('starter'));
    questions.set('q-a', ended('q-a', round.id, ['a'], { action: 'decline' }));
    questions.set('q-b', ended('q-b', round.id, ['b'], { action: 'decline' }));

    await handle({ id: 'q-a', kind: 'question', round: true });
    expect(resumed).toEqual([]);
    await handle({ id: 'q-b', kind: 'question', round: true });
    // Delivered again (at least once): recorded already, claimed already, nothing more.
    await handle({ id: 'q-b', kind: 'question', round: true });

    expect(resumed).toEqual([
      {
        server: 'modern',
        tool: 'counted',
        args: {},
        origin: { userId: 'U1' },
        resume: {
          id: round.id,
          round: 1,
          requestState: 'sealed',
          answers: { a: { action: 'decline' }, b: { action: 'decline' } },
        },
      },
    ]);
    expect(await store.get(round.id)).toMatchObject({ status: 'claimed', claimant: 'survivor' });
  });

  it('splits the one answer of a combined form back per request, and its last key claims', async () => {
    const shared = new MemoryRounds();
    const questions = new Map<string, Question>();
    const { store, resumed, handle } = recorder(shared, questions);
    const round = await store.open(newRound('starter'));
    // The form as round-form.ts combines the two: each request's fields renamed `<n>.<name>`.
    const combined = {
      ...ended('q-ab', round.id, ['a', 'b'], { action: 'accept', content: { '1.ok': true, '2.ok': false } }),
      requestedSchema: {
        type: 'object',
        properties: { '1.ok': CONFIRM.properties.ok, '2.ok': CONFIRM.properties.ok },
      },
    };
    questions.set('q-ab', combined);

    await handle({ id: 'q-ab', kind: 'question', round: true });
    expect((await store.get(round.id))?.answers).toEqual({
      a: { action: 'accept', content: { ok: true } },
      b: { action: 'accept', content: { ok: false } },
    });
    expect(resumed.map((call) => call.resume.id)).toEqual([round.id]);
  });
});
