// A server that floods elicitations: beyond its `maxPending` the extra requests are answered at once with
// a JSON-RPC error, and Slack only ever sees the cards that fit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultText } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

const isCard = (blocks: unknown): boolean => JSON.stringify(blocks ?? '').includes('elicit_respond');

describe('a server flooding elicitations', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ policy: { maxPending: 2 } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('gets -32600 beyond maxPending at once, and only the cards that fit are posted', async () => {
    await h.driver.slashCommand({ userId: 'U1', command: '/mcp', text: 'run fixture flood {"count": 5}' });
    const channel = h.standin.dmChannelOf('U1');
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) =>
        c.ok &&
        c.args.channel === channel &&
        isCard(c.args.blocks) &&
        JSON.stringify(c.args).includes('Question 2'),
      15_000,
    );
    const cards = h.standin.messagesIn(channel).filter((m) => isCard(m.blocks));
    expect(cards).toHaveLength(2);
    for (const card of cards) {
      await h.driver.clickButton({ userId: 'U1', channel, ts: card.ts, actionId: 'elicit_decline' });
    }

    const result = await h.standin.waitForCall(
      'chat.postMessage',
      (c) =>
        c.ok &&
        c.args.channel === channel &&
        !isCard(c.args.blocks) &&
        resultText(c.args.blocks).startsWith('['),
      15_000,
    );
    const answers = JSON.parse(resultText(result.args.blocks)) as {
      action?: string;
      error?: { code: number; message: string };
    }[];
    expect(answers.filter((a) => a.action === 'decline')).toHaveLength(2);
    const refused = answers.filter((a) => a.error !== undefined);
    expect(refused).toHaveLength(3);
    for (const { error } of refused) {
      expect(error?.code).toBe(-32600);
      expect(error?.message).toContain('maxPending 2');
    }
    const cardPosts = h.standin.calls.filter((c) => c.method === 'chat.postMessage' && isCard(c.args.blocks));
    expect(cardPosts).toHaveLength(2);
  });
});
