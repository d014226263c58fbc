// A 2026-07-28 URL request has no elicitationId and no completion notification (#17.5): accepting the card is
// consent, and the retry tells whether the flow finished. The fixture's `url_steps` finishes only at the second
// accept, so its first retry asks for the same link again: the person keeps ONE message, updated in place with
// Open link, Retry and Cancel, until the call ends; then the card shows the end and its buttons go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { resultText } from '../support/slack-text.js';
import { startMrtrFixture, type HttpPeer } from '../mcp/peers.js';
import { startHarness, type Harness } from './harness.js';

describe('a 2026 URL request asked again keeps one card with Retry and Cancel', () => {
  let peer: HttpPeer;
  let h: Harness;
  beforeAll(async () => {
    peer = await startMrtrFixture();
    h = await startHarness({ servers: { modern: { url: peer.url } } });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await peer.stop();
  });

  const blocksOf = (c: { blocks?: unknown; args?: { blocks?: unknown } }): string =>
    JSON.stringify(c.args?.blocks ?? c.blocks ?? '');
  const resultIn = (userId: string, text: string): Promise<RecordedCall> =>
    h.standin.waitForCall(
      'chat.postMessage',
      (c) =>
        c.ok && c.args.channel === h.standin.dmChannelOf(userId) && resultText(c.args.blocks).includes(text),
      15_000,
    );
  const updateOf = (card: { ts: string }, match: (blocks: string) => boolean): Promise<RecordedCall> =>
    h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts && match(blocksOf(c)), 15_000);
  /** The link cards posted (not updated) in the person's DM. */
  const linkCardsIn = (channel: string) =>
    h.standin.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === channel &&
        blocksOf(c).includes('elicit_url_open'),
    );
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
    expect(blocksOf(ended)).toContain('<@U2>');
    expect(hasButtons(blocksOf(h.standin.message(card.channel, card.ts) ?? {}))).toBe(false);
  });
});
