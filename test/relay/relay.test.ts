// The relay core in-process, on a real Redis store, with a recording surface in place of Slack.
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { Relay, type RelayClock, type RelayObserver } from '../../src/relay/relay.js';
import { checkFormSchema } from '../../src/slack/checks.js';
import { StoreError } from '../../src/store/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { silent, storesClosedAfterEach } from './support.js';
import { deferred } from '../support/deferred.js';
import { RecordingSurface, manualClock } from './recording-surface.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } } };

const openStore = storesClosedAfterEach();

async function setUp(
  options: {
    inbox?: boolean;
    reminderTimes?: (timeoutMs: number, now: number) => number[];
    clock?: RelayClock;
    observer?: RelayObserver;
  } = {},
) {
  const prefix = uniquePrefix();
  const store = await openStore('holder-a', prefix);
  const surface = new RecordingSurface();
  const relay = new Relay({
    ...(options.reminderTimes ? { reminderTimes: options.reminderTimes } : {}),
    store,
    links: store.roundLinks(),
    surface,
    checkSchema: checkFormSchema,
    checkUrl: () => undefined,
    backstopGraceMs: 100,
    logger: silent,
    clock: options.clock ?? systemClock,
    ...(options.observer ? { observer: options.observer } : {}),
  });
  if (options.inbox !== false) await store.startInbox((q) => relay.onFinished(q));
  return { prefix, store, surface, relay };
}

const ask = (signal = new AbortController().signal, timeoutMs = 60_000) => ({
  server: 'fixture',
  userId: 'U1',
  origin: { userId: 'U1' },
  message: 'Ship it?',
  requestedSchema: SCHEMA,
  timeoutMs,
  signal,
});

describe('Relay', () => {
  it('refuses a schema it cannot render before storing anything', async () => {
    const { relay } = await setUp();
    const nested = { type: 'object', properties: { a: { type: 'object' } } };
    await expect(relay.askForm({ ...ask(), requestedSchema: nested })).rejects.toMatchObject({
      code: 'invalid_schema',
    });
  });

  it('resolves with the outcome of whichever replica ends the question', async () => {
    const { relay, surface, prefix } = await setUp();
    const other = await openStore('holder-b', prefix);
    const answer = relay.askForm(ask());
    const question = await surface.posted;
    await other.finish(question.id, { action: 'accept', content: { ok: true } }, 'answered');
    expect(await answer).toEqual({ action: 'accept', content: { ok: true } });
  });

  it('withdraws the question when the server cancels, and updates the card', async () => {
    const { relay, surface, store } = await setUp();
    const controller = new AbortController();
    const answer = relay.askForm(ask(controller.signal));
    const question = await surface.posted;
    controller.abort();
    expect(await answer).toEqual({ action: 'cancel' });
    expect(await store.get(question.id)).toMatchObject({ state: 'cancelled', reason: 'withdrawn' });
    expect((await surface.firstEnded).reason).toBe('withdrawn');
    expect(surface.ended).toHaveLength(1);
  });

  it("ends the question as call_ended when the signal's reason says the tool call ended", async () => {
    const { relay, surface, store } = await setUp();
    const controller = new AbortController();
    const answer = relay.askForm(ask(controller.signal));
    const question = await surface.posted;
    controller.abort('call_ended');
    expect(await answer).toEqual({ action: 'cancel' });
    expect(await store.get(question.id)).toMatchObject({ state: 'cancelled', reason: 'call_ended' });
    expect((await surface.firstEnded).reason).toBe('call_ended');
  });

  it('ends a question whose card cannot be posted at once, as delivery_failed', async () => {
    const { relay, surface, store } = await setUp();
    surface.failPosting = true;
    expect(await relay.askForm(ask())).toEqual({ action: 'cancel' });
    expect(await store.get(surface.attempted?.id ?? '')).toMatchObject({
      state: 'cancelled',
      reason: 'delivery_failed',
    });
  });

  it('ends a question one of whose cards cannot be posted as delivery_failed, and updates the card that is out', async () => {
    const { relay, surface, store } = await setUp();
    surface.failOneOfTwo = true;
    expect(await relay.askForm(ask())).toEqual({ action: 'cancel' });
    const ended = await surface.firstEnded;
    expect(ended).toMatchObject({ reason: 'delivery_failed', card: { channel: 'G1', ts: '1.1' } });
    expect(await store.get(ended.id)).toMatchObject({ state: 'cancelled', reason: 'delivery_failed' });
  });

  it('attaches a posted card again while Redis is unavailable, and relays the answer given meanwhile', async () => {
    const { relay, surface, store } = await setUp();
    const unavailable = new StoreError('redis_unavailable', 'Redis unavailable during attachCards');
    const attach = vi.spyOn(store, 'attachCards').mockRejectedValueOnce(unavailable);
    const answer = relay.askForm(ask());
    const question = await surface.posted;
    await vi.waitFor(() => expect(attach).toHaveBeenCalledTimes(2));
    expect(await store.get(question.id)).toMatchObject({ card: { channel: 'D1', ts: '1.1' } });
    await relay.end(question.id, { action: 'accept', content: { ok: true } }, 'answered');
    expect(await answer).toEqual({ action: 'accept', content: { ok: true } });
    expect(surface.ended.map((q) => q.id)).toEqual([question.id]);
  });

  it('updates the card once when a click ends the question between an attach that reached Redis and its try again', async () => {
    const { relay, surface, store } = await setUp();
    const attachOnce = store.attachCards.bind(store);
    const attach = vi.spyOn(store, 'attachCards').mockImplementationOnce(async (id, cards) => {
      await attachOnce(id, cards);
      await relay.end(id, { action: 'decline' }, 'declined', { byUserId: 'U7' });
      // The attach and the click both reached Redis; only the attach's answer was lost.
      throw new StoreError('redis_unavailable', 'Redis unavailable during attachCards');
    });
    expect(await relay.askForm(ask())).toEqual({ action: 'decline' });
    await vi.waitFor(() => expect(attach).toHaveBeenCalledTimes(2));
    await relay.endAllWaiting();
    expect(surface.endedBy).toEqual(['U7']);
  });

  it('answers cancel at the deadline even when Redis lost the question and its timer (local backstop)', async () => {
    const { relay, surface, store, prefix } = await setUp();
    const answer = relay.askForm(ask(undefined, 300));
    const question = await surface.posted;
    const redis = new Redis(redisUrl());
    await redis.del(`${prefix}:{q}:question:${question.id}`);
    await redis.quit();
    expect(await answer).toEqual({ action: 'cancel' });
    expect(await store.get(question.id)).toBeUndefined();
  });

  it('runs the local backstop on the injected clock, and ends the question through end()', async () => {
    const clock = manualClock();
    const { relay, surface, store } = await setUp({ clock });
    const answer = relay.askForm(ask());
    const question = await surface.posted;
    clock.fire();
    expect(await answer).toEqual({ action: 'cancel' });
    expect(await store.get(question.id)).toMatchObject({ state: 'cancelled', reason: 'timed_out' });
    expect((await surface.firstEnded).id).toBe(question.id);
  });

  it('updates the card after the step given as beforeCard (a listener acks Slack there)', async () => {
    const { relay, surface, store } = await setUp();
    const answer = relay.askForm(ask());
    const question = await surface.posted;
    // A click that beats the card's attach is the poster's to update (deliver), not end()'s: this test is about
    // the click on a card that is out, so it waits until the card is attached.
    await vi.waitFor(async () => expect((await store.get(question.id))?.card).toBeDefined());
    const seen: string[] = [];
    await relay.end(question.id, { action: 'decline' }, 'declined', {
      beforeCard: (result) =>
        Promise.resolve(void seen.push(`acked won=${result.won} ended=${surface.ended.length}`)),
    });
    expect(seen).toEqual(['acked won=true ended=0']);
    expect(surface.ended.map((q) => q.id)).toEqual([question.id]);
    expect(await answer).toEqual({ action: 'decline' });
  });

  it('counts, audits and updates the card of a question it ended even when the reply before the card fails', async () => {
    const endedSeen: string[] = [];
    const observer = { created: () => undefined, ended: (q: { id: string }) => void endedSeen.push(q.id) };
    const { relay, surface, store } = await setUp({ observer });
    const answer = relay.askForm(ask());
    const question = await surface.posted;
    await vi.waitFor(async () => expect((await store.get(question.id))?.card).toBeDefined());
    const lostAck = new Error('the listener could not answer Slack');
    await expect(
      relay.end(question.id, { action: 'decline' }, 'declined', {
        beforeCard: () => Promise.reject(lostAck),
      }),
    ).rejects.toBe(lostAck);
    expect(endedSeen).toEqual([question.id]);
    expect(surface.ended.map((q) => q.id)).toEqual([question.id]);
    expect(await answer).toEqual({ action: 'decline' });
  });

  it('updates the card once, naming the person, when their click ends the question before its card is attached', async () => {
    const { relay, surface, store } = await setUp();
    const { promise: slowPost, resolve: answerSlack } = deferred();
    surface.slowPost = slowPost;
    const answer = relay.askForm(ask());
    const question = await surface.posted;
    const clicked = await relay.end(question.id, { action: 'decline' }, 'declined', { byUserId: 'U7' });
    expect(clicked.won).toBe(true);
    expect(surface.ended).toEqual([]);
    answerSlack();
    expect(await answer).toEqual({ action: 'decline' });
    // The answer does not wait for the card; its update follows once the card is attached.
    await surface.firstEnded;
    expect(surface.ended.map((q) => [q.id, q.card])).toEqual([[question.id, { channel: 'D1', ts: '1.1' }]]);
    expect(surface.endedBy).toEqual(['U7']);
    expect(await store.get(question.id)).toMatchObject({ endedBy: 'U7' });
  });

  it('relays the winner’s answer when the backstop loses the race to it', async () => {
    const { relay, surface, prefix } = await setUp({ inbox: false });
    const other = await openStore('holder-b', prefix);
    const answer = relay.askForm(ask(undefined, 300));
    const question = await surface.posted;
    await other.finish(question.id, { action: 'decline' }, 'declined');
    expect(await answer).toEqual({ action: 'decline' });
  });

  it('nudges the person while the question is pending, and not once it has ended', async () => {
    const { relay, surface, store } = await setUp({ reminderTimes: (_t, now) => [now + 150] });
    await store.startReminders((id) => relay.remind(id));
    const answer = relay.askForm(ask());
    const question = await surface.posted;
    expect((await surface.firstReminded).id).toBe(question.id);
    await store.finish(question.id, { action: 'decline' }, 'declined');
    expect(await answer).toEqual({ action: 'decline' });
    expect(surface.reminded).toHaveLength(1);
  });
});
