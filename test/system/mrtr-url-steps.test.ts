// A 2026-07-28 URL request has no elicitationId and no completion notification (#17.5): accepting the card is
// consent, and the retry tells whether the flow finished. The fixture's `url_steps` finishes only at the second
// accept, so its first retry asks for the same link again: the person keeps ONE message, updated in place with
// Open link, Retry and Cancel, until the call ends; then the card shows the end and its buttons go. The App Home
// learns each question's end when it ends, not when the call does. A durable round taken over by another
// replica still updates the same message (the link's latest question is in Redis).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { keys } from '../../src/redis/index.js';
import { TAKE_OVER_EVERY_MS } from '../../src/rounds/index.js';
import type { RecordedCall } from '../../src/standin/index.js';
import { resultText } from '../support/slack-text.js';
import { redisUrl } from '../setup/context.js';
import { KILLED_LEASE_MS, doomedReplica } from './child-replicas.js';
import { postedInDm, startMrtrHarness, type MrtrHarness } from './mrtr-harness.js';

describe('a 2026 URL request asked again keeps one card with Retry and Cancel', () => {
  let h: MrtrHarness;
  beforeAll(async () => {
    h = await startMrtrHarness();
  }, 60_000);
  afterAll(() => h.close());

  const blocksOf = (c: { blocks?: unknown; args?: { blocks?: unknown } }): string =>
    JSON.stringify(c.args?.blocks ?? c.blocks ?? '');
  const resultIn = (userId: string, text: string): Promise<RecordedCall> =>
    postedInDm(h, userId, (c) => resultText(c.args.blocks).includes(text));
  const updateOf = (
    card: { ts: string },
    match: (blocks: string) => boolean,
    withinMs = 15_000,
  ): Promise<RecordedCall> =>
    h.standin.waitForCall(
      'chat.update',
      (c) => c.ok && c.args.ts === card.ts && match(blocksOf(c)),
      withinMs,
    );
  /** `userId`'s App Home once it lists `text` among their recent answers. */
  const homeSays = (userId: string, text: string): Promise<RecordedCall> =>
    h.standin.waitForCall(
      'views.publish',
      (c) => c.ok && c.args.user_id === userId && JSON.stringify(c.args.view).includes(text),
      15_000,
    );
  /** The link cards posted (not updated) in the person's DM. */
  const linkCardsIn = (channel: string) =>
    h.standin.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === channel &&
        blocksOf(c).includes('elicit_url_open'),
    );
  /** The question a card asks (its Open link button's value). */
  const questionIdOf = (blocks: unknown): string =>
    /"action_id":"elicit_url_open","text":\{[^}]*\},"value":"([^"]+)"/.exec(
      JSON.stringify(blocks ?? ''),
    )?.[1] ?? '';
  /** Resolves once question `id`'s record names its card. */
  async function cardAttached(id: string): Promise<void> {
    const redis = new Redis(redisUrl());
    try {
      await vi.waitFor(
        async () => expect(await redis.hexists(keys(h.prefix).question(id), 'cardTs')).toBe(1),
        {
          timeout: 15_000,
        },
      );
    } finally {
      await redis.quit();
    }
  }
  const hasButtons = (blocks: string): boolean =>
    /elicit_url_(open|retry|cancel)|elicit_decline/.test(blocks);

  /** Runs url_steps and clicks Open link: the retry asks for the link again, on the same message. */
  async function askedAgain(userId: string): Promise<{ channel: string; ts: string }> {
    const card = await h.run(userId, 'url_steps', {}, 'modern');
    await h.driver.clickButton({ userId, ...card, actionId: 'elicit_url_open' });
    const again = await updateOf(card, (blocks) => blocks.includes('elicit_url_retry'));
    expect(blocksOf(again)).toContain('elicit_url_cancel');
    expect(blocksOf(again)).toContain('elicit_url_open');
    expect(blocksOf(again)).toContain('says the step behind the link is not done yet');
    expect(blocksOf(again)).not.toContain('elicit_decline');
    expect(linkCardsIn(card.channel)).toHaveLength(1);
    // The first round's question ended (the call goes on): the person's App Home says so already.
    await homeSays(userId, 'Link opened');
    return card;
  }

  it('Open link, then Retry on the same message: the result is posted and the card loses its buttons', async () => {
    const card = await askedAgain('U1');
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_url_retry' });
    await resultIn('U1', 'account linked after 2 checks');
    await updateOf(card, (blocks) => !hasButtons(blocks));
    expect(hasButtons(blocksOf(h.standin.message(card.channel, card.ts) ?? {}))).toBe(false);
    expect(linkCardsIn(card.channel)).toHaveLength(1);
  });

  it('Cancel on the card asked again ends the call cancelled, and the card loses its buttons', async () => {
    const card = await askedAgain('U2');
    await h.driver.clickButton({ userId: 'U2', ...card, actionId: 'elicit_url_cancel' });
    await resultIn('U2', 'link cancelled');
    const ended = await updateOf(card, (blocks) => !hasButtons(blocks));
    // Stored as the contract's 'closed' (a cancel by the person's own act), said as what it was on a link.
    expect(blocksOf(ended)).toContain('Cancelled by <@U2>');
    expect(blocksOf(ended)).not.toContain('Closed without answering');
    expect(hasButtons(blocksOf(h.standin.message(card.channel, card.ts) ?? {}))).toBe(false);
    await homeSays('U2', 'Cancelled');
  });

  it(
    'updates the same message when the replica that asked the link died and a survivor asks it again',
    { timeout: KILLED_LEASE_MS + TAKE_OVER_EVERY_MS + 60_000 },
    async () => {
      const { doomed, driver } = await doomedReplica(h, { modern: { url: h.peer.url } });
      await driver.slashCommand({ userId: 'U3', command: '/mcp', text: 'run modern url_steps {}' });
      const channel = h.standin.dmChannelOf('U3');
      await h.standin.waitForCall(
        'chat.postMessage',
        (c) => c.ok && c.args.channel === channel && blocksOf(c).includes('elicit_url_open'),
        30_000,
      );
      const posted = h.standin.messagesIn(channel).find((m) => blocksOf(m).includes('elicit_url_open'));
      const card = { channel, ts: posted?.ts ?? '' };
      // The card is in the question's record (what the next round takes over) before the replica dies.
      await cardAttached(questionIdOf(posted?.blocks));
      doomed.child.kill('SIGKILL');
      await doomed.done;
      // Opened through the survivor: it records the answer, takes the round over and asks the link again.
      await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_url_open' });
      const takeOverMs = KILLED_LEASE_MS + TAKE_OVER_EVERY_MS + 30_000;
      await updateOf(card, (blocks) => blocks.includes('elicit_url_retry'), takeOverMs);
      expect(linkCardsIn(channel)).toHaveLength(1);
      await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_url_retry' });
      await resultIn('U3', 'account linked after 2 checks');
      await updateOf(card, (blocks) => !hasButtons(blocks));
      expect(linkCardsIn(channel)).toHaveLength(1);
    },
  );
});
