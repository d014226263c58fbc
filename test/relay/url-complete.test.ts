// notifications/elicitation/complete in the relay core (Relay.completeUrl): the card of a URL-mode question shows
// its link's step done, on a real Redis store with a recording surface in place of Slack.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import type { RelayClock } from '../../src/relay/relay.js';
import { deferred } from '../support/deferred.js';
import { RecordingSurface, manualClock } from './recording-surface.js';
import { relayOver, silent, storesClosedAfterEach } from './support.js';

const openStore = storesClosedAfterEach();

/** A relay on its own store, whose ends reach it through the store's inbox as on the holder. */
async function setUp(options: { clock?: RelayClock } = {}) {
  const store = await openStore();
  const surface = new RecordingSurface();
  const clock = options.clock ?? systemClock;
  const relay = relayOver(store, surface, { backstopGraceMs: 100, logger: silent, clock });
  await store.startInbox((q) => relay.onFinished(q));
  return { store, surface, relay };
}

describe('notifications/elicitation/complete', () => {
  const askUrl = (elicitationId = 'el-1') => ({
    server: 'fixture',
    userId: 'U1',
    origin: { userId: 'U1' },
    message: 'Connect your account',
    url: 'https://example.com/connect',
    elicitationId,
    timeoutMs: 60_000,
    signal: new AbortController().signal,
  });

  it('shows the step as done on the card of a link the person already opened', async () => {
    const { relay, surface } = await setUp();
    const answer = relay.askUrl(askUrl());
    const question = await surface.posted;
    await relay.end(question.id, { action: 'accept', content: {} }, 'answered', { byUserId: 'U1' });
    expect(await answer).toEqual({ action: 'accept', content: {} });
    await relay.completeUrl('fixture', 'el-1');
    expect(surface.completed.map((q) => [q.id, q.state])).toEqual([[question.id, 'accepted']]);
  });

  it('forgets a link the person opened once the wait for its complete passed: a later complete changes nothing', async () => {
    const clock = manualClock();
    const { relay, surface } = await setUp({ clock });
    const answer = relay.askUrl(askUrl());
    const question = await surface.posted;
    await relay.end(question.id, { action: 'accept', content: {} }, 'answered', { byUserId: 'U1' });
    expect(await answer).toEqual({ action: 'accept', content: {} });
    clock.fire();
    await relay.completeUrl('fixture', 'el-1');
    expect(surface.completed).toEqual([]);
  });

  it('shows the step as done once the card is attached when the click that accepted it beat the attach', async () => {
    const { relay, surface } = await setUp();
    const { promise: slackAnswers, resolve: answerThePost } = deferred();
    surface.slowPost = slackAnswers;
    const answer = relay.askUrl(askUrl());
    const question = await surface.posted;
    await relay.end(question.id, { action: 'accept', content: {} }, 'answered', { byUserId: 'U1' });
    expect(await answer).toEqual({ action: 'accept', content: {} });
    const completing = relay.completeUrl('fixture', 'el-1');
    answerThePost();
    await completing;
    expect(surface.completed.map((q) => q.card)).toEqual([{ channel: 'D1', ts: '1.1' }]);
  });

  it('ends a question still waiting as accepted, since the step it asked for was taken', async () => {
    const { relay, surface } = await setUp();
    const answer = relay.askUrl(askUrl());
    const question = await surface.posted;
    await relay.completeUrl('fixture', 'el-1');
    expect(await answer).toEqual({ action: 'accept', content: {} });
    expect(surface.completed.map((q) => q.id)).toEqual([question.id]);
  });

  it('ignores unknown ids, the same id from another server, and a question declined meanwhile', async () => {
    const { relay, surface } = await setUp();
    const answer = relay.askUrl(askUrl());
    const question = await surface.posted;
    await relay.completeUrl('fixture', 'never-asked');
    await relay.completeUrl('another-server', 'el-1');
    expect(surface.completed).toEqual([]);
    await relay.end(question.id, { action: 'decline' }, 'declined', { byUserId: 'U1' });
    expect(await answer).toEqual({ action: 'decline' });
    await relay.completeUrl('fixture', 'el-1');
    expect(surface.completed).toEqual([]);
  });
});
