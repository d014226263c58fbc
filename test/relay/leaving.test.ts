// A replica stopping (SIGTERM: the lifecycle's 'waiting questions' step, Relay.endAllWaiting) ends the questions
// it waits on as call_ended, except a durable 2026 round's: that one stays pending for a survivor, and neither
// the call's end nor its answer arriving here moves it on, so the round is resumed elsewhere (src/rounds).
import { describe, expect, it } from 'vitest';
import { type Surface } from '../../src/relay/relay.js';
import { relayOver, storesClosedAfterEach } from './support.js';
import type { Question } from '../../src/relay/types.js';
import { deferred } from '../support/deferred.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } } };

const openStore = storesClosedAfterEach();

/** A relay on a real store whose surface reports each card posted (by message) and answers at once. */
async function setUp() {
  const store = await openStore();
  const posted = new Map<string, (question: Question) => void>();
  const postedAs = (message: string): Promise<Question> =>
    new Promise((resolve) => posted.set(message, resolve));
  const surface: Surface = {
    postQuestion: (question) => {
      posted.get(question.message)?.(question);
      return Promise.resolve({ cards: [{ channel: 'D1', ts: `1.${question.message.length}` }] });
    },
    updateCard: () => Promise.resolve(),
    remind: () => Promise.resolve(),
  };
  const relay = relayOver(store, surface);
  await store.startInbox((question) => relay.onFinished(question));
  return { store, relay, postedAs };
}

const ask = (
  message: string,
  signal: AbortSignal,
  round?: { id: string; round: number; keys: string[] },
) => ({
  server: 'modern',
  userId: 'U1',
  origin: { userId: 'U1' },
  message,
  requestedSchema: SCHEMA,
  timeoutMs: 60_000,
  signal,
  ...(round === undefined ? {} : { round }),
});

/** Whether `promise` has settled once the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('a stopping replica’s waiting questions', () => {
  it('end as call_ended, but a durable round’s question stays pending and its call here is never answered', async () => {
    const { store, relay, postedAs } = await setUp();
    const plainPosted = postedAs('Plain?');
    const roundPosted = postedAs('Round?');
    const call = new AbortController();
    const plain = relay.askForm(ask('Plain?', new AbortController().signal));
    const inRound = relay.askForm(ask('Round?', call.signal, { id: 'round_1', round: 1, keys: ['a'] }));
    const [plainQuestion, roundQuestion] = await Promise.all([plainPosted, roundPosted]);

    await relay.endAllWaiting('call_ended');
    expect(await plain).toEqual({ action: 'cancel' });
    expect(await store.get(plainQuestion.id)).toMatchObject({ state: 'cancelled', reason: 'call_ended' });
    expect(await store.get(roundQuestion.id)).toMatchObject({ state: 'pending' });

    // The MCP sessions close next, ending the call: the question is still the survivor's to end.
    call.abort('call_ended');
    const declined = await relay.end(roundQuestion.id, { action: 'decline' }, 'declined', { byUserId: 'U1' });
    expect(declined.won).toBe(true);
    // Its answer reaching this replica does not go on with the call here (a survivor records it in the round).
    const ended = await store.get(roundQuestion.id);
    if (ended === undefined) throw new Error('the question is gone');
    relay.onFinished(ended);
    expect(await settled(inRound)).toBe(false);
  });
});

describe('a stopping replica’s card posts in flight', () => {
  it('are awaited, so a durable round’s card already on its way is attached, not cut off and ended undelivered', async () => {
    const store = await openStore();
    const { promise: postStarted, resolve: posting } = deferred();
    let answerPost = (): void => undefined;
    const surface: Surface = {
      postQuestion: () => {
        posting();
        return new Promise((resolve) => {
          answerPost = () => resolve({ cards: [{ channel: 'D1', ts: '1.5' }] });
        });
      },
      updateCard: () => Promise.resolve(),
      remind: () => Promise.resolve(),
    };
    const relay = relayOver(store, surface);
    void relay.askForm(ask('Round?', new AbortController().signal, { id: 'round_1', round: 1, keys: ['a'] }));
    await postStarted;

    const stopped = relay.endAllWaiting('call_ended');
    expect(await settled(stopped)).toBe(false);
    answerPost();
    await stopped;
    const [question] = await store.pendingFor('U1');
    expect(question).toMatchObject({ state: 'pending', card: { channel: 'D1', ts: '1.5' } });
  });
});
