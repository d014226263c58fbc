// Relay.open (an API question, nobody waiting on it) on a real Redis store: it hands the question back once its
// card's post is durable, so a replica killed after the API's 201 leaves the post to another; or, when the post
// cannot be queued yet (the outbox's Redis connection down), after a bounded wait, the question being stored.
import { describe, expect, it } from 'vitest';
import { DETACHED_QUEUED_WITHIN_MS } from '../../src/relay/card-delivery.js';
import { RelayError } from '../../src/relay/errors.js';
import { type DetachedAsk, type Posting, type RelayClock, type Surface } from '../../src/relay/relay.js';
import { relayOver, storesClosedAfterEach } from './support.js';
import type { Question } from '../../src/relay/types.js';
import { deferred } from '../support/deferred.js';

/** A surface whose post is queued on the next turn of the event loop and answered when the test says. */
function queueingSurface(options: { failBeforeQueued?: boolean; outboxDown?: boolean } = {}) {
  const events: string[] = [];
  const { promise: slackAnswered, resolve: answer } = deferred();
  // With the outbox's Redis connection down, the post is queued only once the test brings it back.
  const { promise: outboxUp, resolve: outboxBack } = deferred();
  if (!options.outboxDown) outboxBack();
  const surface: Surface = {
    postQuestion: async (_question: Question, posting?: Posting) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (options.failBeforeQueued) throw new RelayError('slack_post_failed', 'channel_not_found');
      await outboxUp;
      events.push('queued');
      posting?.queued?.();
      await slackAnswered;
      events.push('posted');
      return { cards: [{ channel: 'D1', ts: '1.1' }] };
    },
    updateCard: () => Promise.resolve(),
    remind: () => Promise.resolve(),
  };
  return { surface, events, answer, outboxBack };
}

const openStore = storesClosedAfterEach();

async function relayWith(
  surface: Surface,
  reminderTimes?: (timeoutMs: number, now: number) => number[],
  clock?: RelayClock,
) {
  const store = await openStore();
  const relay = relayOver(store, surface, {
    ...(reminderTimes ? { reminderTimes } : {}),
    ...(clock ? { clock } : {}),
  });
  return { store, relay };
}

const apiAsk: DetachedAsk = {
  server: 'api',
  client: 'default',
  userId: 'U1',
  origin: { userId: 'U1' },
  place: { dm: 'U1' },
  message: 'Deploy?',
  requestedSchema: { type: 'object', properties: {} },
  timeoutMs: 60_000,
  source: 'api',
};

describe('Relay.open (an API question)', () => {
  it("returns the question once its card's post is queued, before Slack has answered the post", async () => {
    const { surface, events, answer } = queueingSurface();
    const { relay, store } = await relayWith(surface);
    const question = await relay.open(apiAsk);
    events.push('returned');
    expect(events).toEqual(['queued', 'returned']);
    answer();
    await relay.endAllWaiting();
    expect(events).toEqual(['queued', 'returned', 'posted']);
    expect((await store.get(question.id))?.card).toEqual({ channel: 'D1', ts: '1.1' });
  });

  it('returns the question after a bounded wait when its post cannot be queued yet, and posts it once it can', async () => {
    const { surface, events, answer, outboxBack } = queueingSurface({ outboxDown: true });
    // The bounded wait runs when the test says; nothing else scheduled on this clock runs (a turn's hold).
    const { promise: waitScheduled, resolve: scheduled } = deferred<() => void>();
    const schedule = (fn: () => void, ms: number) => {
      if (ms === DETACHED_QUEUED_WITHIN_MS) scheduled(fn);
      return () => undefined;
    };
    const clock = { now: Date.now, schedule };
    const { relay, store } = await relayWith(surface, undefined, clock);
    const opened = relay.open(apiAsk).then((question) => (events.push('returned'), question));
    const waitOver = await waitScheduled;
    expect(events).toEqual([]);
    waitOver();
    const question = await opened;
    expect(events).toEqual(['returned']);
    expect(await store.get(question.id)).toMatchObject({ state: 'pending' });
    outboxBack();
    answer();
    await relay.endAllWaiting();
    expect(events).toEqual(['returned', 'queued', 'posted']);
    expect((await store.get(question.id))?.card).toEqual({ channel: 'D1', ts: '1.1' });
  });

  it('returns the question ended as delivery_failed when its post fails before it was queued', async () => {
    const { surface } = queueingSurface({ failBeforeQueued: true });
    const { relay, store } = await relayWith(surface);
    const question = await relay.open(apiAsk);
    expect(await store.get(question.id)).toMatchObject({ state: 'cancelled', reason: 'delivery_failed' });
  });
  it('nudges the people an API question asks at its reminder times, as for an MCP question', async () => {
    const { promise: firstReminder, resolve: reminded } = deferred<string>();
    const surface: Surface = {
      postQuestion: () => Promise.resolve({ cards: [{ channel: 'D1', ts: '1.1' }] }),
      updateCard: () => Promise.resolve(),
      remind: (question) => Promise.resolve(reminded(question.id)),
    };
    // One reminder 150 ms after asking (the default is half time for questions of two minutes or more).
    const { relay, store } = await relayWith(surface, (_timeoutMs, now) => [now + 150]);
    await store.startReminders((id) => relay.remind(id));
    const question = await relay.open(apiAsk);
    expect(await firstReminder).toBe(question.id);
  });
});
