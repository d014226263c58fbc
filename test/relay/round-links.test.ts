// A 2026 URL request asked again by the next round of its call (#17.5): the relay hands the previous round's
// card to the next question (kept in its stored record), never sends the previous question's ended card update
// (it would race the next round's update of the same message) but tells the surface each question ended (the
// App Home follows), and shows the last question's end once the call ends (settleLinks). The latest question
// of each link is in Redis, so a round taken over by another replica finds the card. On a real Redis store,
// with a surface that records what it was asked to do.
import { describe, expect, it, vi } from 'vitest';
import { type CardChange, type PostedCards, type Surface } from '../../src/relay/relay.js';
import { relayOver, storesClosedAfterEach } from './support.js';
import type { CardRef, Question } from '../../src/relay/types.js';
import { uniquePrefix } from '../setup/context.js';

/** Posts each question's card as a new message unless it replaces earlier ones; records each card change. */
class CardLog implements Surface {
  readonly changes: [string, CardChange['kind']][] = [];
  private readonly waiting: ((q: Question) => void)[] = [];
  private posts = 0;

  /** The next question whose card goes out. */
  next(): Promise<Question> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  postQuestion(question: Question): Promise<PostedCards> {
    this.posts += 1;
    const cards: CardRef[] = question.url?.replaces ?? [{ channel: 'D1', ts: `${this.posts}.1` }];
    this.waiting.shift()?.(question);
    return Promise.resolve({ cards });
  }

  updateCard(question: Question, change: CardChange): Promise<void> {
    this.changes.push([question.id, change.kind]);
    return Promise.resolve();
  }

  remind(): Promise<void> {
    return Promise.resolve();
  }
}

const openStore = storesClosedAfterEach();

/** One replica: its store (on `prefix`), surface and relay. */
async function setUp(prefix = uniquePrefix(), holderId = 'holder-a') {
  const store = await openStore(holderId, prefix);
  const surface = new CardLog();
  const relay = relayOver(store, surface);
  await store.startInbox((q) => relay.onFinished(q));
  return { store, surface, relay };
}

const link = (elicitationId: string) => ({
  server: 'fixture',
  userId: 'U1',
  origin: { userId: 'U1' },
  message: 'Link your account',
  url: 'https://example.com/link',
  elicitationId,
  timeoutMs: 60_000,
  signal: new AbortController().signal,
});

/** Asks `elicitationId` and accepts it as U1 would by clicking; resolves with the question asked. */
async function askAndAccept(setup: Awaited<ReturnType<typeof setUp>>, elicitationId: string) {
  const posted = setup.surface.next();
  const answer = setup.relay.askUrl(link(elicitationId));
  const question = await posted;
  // A click on a card that is out: the card is attached first (a click beating the attach is deliver's case).
  await vi.waitFor(async () => expect((await setup.store.get(question.id))?.card).toBeDefined());
  await setup.relay.end(question.id, { action: 'accept', content: {} }, 'answered', { byUserId: 'U1' });
  expect(await answer).toEqual({ action: 'accept', content: {} });
  return question;
}

describe('a 2026 URL request asked again', () => {
  it('takes over the previous round’s card; only the last question’s card shows the end, once the call ends', async () => {
    const setup = await setUp();
    const first = await askAndAccept(setup, 'mrtr:call-1:link');
    expect(setup.surface.changes).toEqual([[first.id, 'ended_card_waits']]);
    const firstCard = (await setup.store.get(first.id))?.card;
    expect(firstCard).toEqual({ channel: 'D1', ts: '1.1' });
    const second = await askAndAccept(setup, 'mrtr:call-1:link');
    expect(second.url?.replaces).toEqual([firstCard]);
    expect((await setup.store.get(second.id))?.url?.replaces).toEqual([firstCard]);
    expect((await setup.store.get(second.id))?.card).toEqual(firstCard);
    const ends = [
      [first.id, 'ended_card_waits'],
      [second.id, 'ended_card_waits'],
    ];
    expect(setup.surface.changes).toEqual(ends);
    await setup.relay.settleLinks('fixture', ['mrtr:call-1:link']);
    expect(setup.surface.changes).toEqual([...ends, [second.id, 'settled']]);
    await setup.relay.settleLinks('fixture', ['mrtr:call-1:link']);
    expect(setup.surface.changes).toHaveLength(3);
  });

  it('finds the previous round’s card asked on another replica, and the call ends on a third', async () => {
    const prefix = uniquePrefix();
    const asking = await setUp(prefix, 'holder-a');
    const takingOver = await setUp(prefix, 'holder-b');
    const ending = await setUp(prefix, 'holder-c');
    const first = await askAndAccept(asking, 'mrtr:call-1:link');
    const second = await askAndAccept(takingOver, 'mrtr:call-1:link');
    const firstCard = (await asking.store.get(first.id))?.card;
    expect(second.url?.replaces).toEqual([firstCard]);
    expect(takingOver.surface.changes).toEqual([[second.id, 'ended_card_waits']]);
    await ending.relay.settleLinks('fixture', ['mrtr:call-1:link']);
    expect(ending.surface.changes).toEqual([[second.id, 'settled']]);
  });

  it('gives another call’s request, or another key, a card of its own', async () => {
    const setup = await setUp();
    await askAndAccept(setup, 'mrtr:call-1:link');
    const otherCall = await askAndAccept(setup, 'mrtr:call-2:link');
    const otherKey = await askAndAccept(setup, 'mrtr:call-1:other');
    expect(otherCall.url?.replaces).toBeUndefined();
    expect(otherKey.url?.replaces).toBeUndefined();
  });

  it('leaves a 2025 URL question (the server’s own id) as before: its card shows the end at once', async () => {
    const setup = await setUp();
    const first = await askAndAccept(setup, 'el-1');
    expect(setup.surface.changes).toEqual([[first.id, 'ended']]);
    const again = await askAndAccept(setup, 'el-1');
    expect(again.url?.replaces).toBeUndefined();
  });
});
