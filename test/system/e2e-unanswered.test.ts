// End to end, the questions no person answers: the deadline passes, the bot stops while it holds them, or the
// server's policy refuses or declines them before Slack is asked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionStore } from '../../src/store/index.js';
import { redisUrl } from '../setup/context.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';
import { EVERY_KIND, expectCardEnded, openForm } from './e2e-support.js';

describe('the deadline', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeout: '1s' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers cancel when nobody answers in time, and updates the card', async () => {
    const card = await h.ask('U1', EVERY_KIND);
    const viewId = await openForm(h, 'U1', card);
    expect(await h.toolResult('U1')).toEqual({ action: 'cancel' });
    await expectCardEnded(h, card, 'Expired');
    // The form left open past the deadline is replaced by a notice saying it expired: nothing to submit.
    const notice = await h.standin.waitForCall('views.update', (c) => c.ok && c.args.view_id === viewId);
    expect(JSON.stringify(notice.args.view)).toContain('Expired');
    expect(JSON.stringify(h.standin.view(viewId)?.view)).not.toContain('"type":"input"');
  });
});

describe('graceful shutdown', () => {
  it('ends the questions it holds when it stops, stored as cancelled and with their cards updated', async () => {
    const h = await startHarness();
    const card = await h.ask('U1', EVERY_KIND);
    const questionId = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    await h.close();
    const updated = h.standin.calls.find((c) => c.method === 'chat.update' && c.args.ts === card.ts);
    expect(JSON.stringify(updated?.args.blocks)).toContain('the tool call that asked has ended');
    const store = await QuestionStore.open({ url: redisUrl(), prefix: h.prefix, holderId: 'inspector' });
    try {
      expect(await store.get(questionId ?? '')).toMatchObject({ state: 'cancelled', reason: 'call_ended' });
    } finally {
      await store.close();
    }
  });
});

/** Runs `/mcp run fixture ask` as `userId` without waiting for a card (the policy answers before Slack is asked). */
async function askWithoutCard(h: Harness, userId: string, message: string, schema: object): Promise<void> {
  const text = `run fixture ask ${JSON.stringify({ message, schema })}`;
  await h.driver.slashCommand({ userId, command: '/mcp', text });
}

describe('per-server policy', () => {
  it('refuses elicitations beyond ratePerMinute with a JSON-RPC error, and Slack is not asked', async () => {
    const h = await startHarness({ policy: { ratePerMinute: 1 } });
    try {
      await h.ask('U1', EVERY_KIND);
      await askWithoutCard(h, 'U2', 'Again?', EVERY_KIND);
      expect(await h.toolResult('U2')).toMatchObject({
        error: { code: -32600, message: expect.stringContaining('too many') as unknown },
      });
      expect(h.standin.messagesIn(h.standin.dmChannelOf('U2'))).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('refuses forms that ask for secrets with -32602 when the server’s policy says refuse', async () => {
    const h = await startHarness({ policy: { secrets: 'refuse' } });
    try {
      const schema = { type: 'object', properties: { password: { type: 'string', title: 'Password' } } };
      await askWithoutCard(h, 'U1', 'Log in', schema);
      expect(await h.toolResult('U1')).toMatchObject({
        error: { code: -32602, message: expect.stringContaining('look like secrets') as unknown },
      });
      expect(h.standin.messagesIn(h.standin.dmChannelOf('U1'))).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('answers decline without asking anyone when the server’s mode is decline', async () => {
    const h = await startHarness({ policy: { mode: 'decline' } });
    try {
      await askWithoutCard(h, 'U1', 'Hi', EVERY_KIND);
      expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
      expect(h.standin.messagesIn(h.standin.dmChannelOf('U1'))).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});
