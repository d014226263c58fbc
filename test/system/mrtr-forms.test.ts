// Issue #17.4 through Slack's stand-in: the three form requests of one 2026 round (the fixture's
// three_requests) come to their one answerer as ONE card whose form has a titled section per request; one
// submit answers every key, and one decline declines every key (the fixture's result says what it received).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultText } from '../support/slack-text.js';
import { inputLabelled, openForm } from './harness.js';
import { postedInDm, startMrtrHarness, type MrtrHarness } from './mrtr-harness.js';

describe('several requests of one 2026 round in one form', () => {
  let h: MrtrHarness;
  beforeAll(async () => {
    h = await startMrtrHarness();
  }, 60_000);
  afterAll(() => h.close());

  /** The question cards posted in the person's DM so far. */
  const cards = (userId: string) =>
    h.standin.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === h.standin.dmChannelOf(userId) &&
        JSON.stringify(c.args.blocks ?? '').includes('elicit_respond'),
    );

  it('asks the three requests on one card, one form with a section each, and one submit answers all three', async () => {
    const card = await h.run('U1', 'three_requests', {}, 'modern');
    expect(cards('U1')).toHaveLength(1);
    const form = await openForm(h, 'U1', card);
    const blocks = (h.standin.view(form)?.view as { blocks: { type: string; text?: { text: string } }[] })
      .blocks;
    const headers = blocks.filter((b) => b.type === 'header').map((b) => b.text?.text);
    expect(headers).toEqual(['Name?', 'Age?', 'Colour?']);
    const delivery = await h.driver.submitView({
      userId: 'U1',
      viewId: form,
      values: {
        [inputLabelled(h, form, 'Name')]: 'Ada',
        [inputLabelled(h, form, 'Age')]: 36,
        [inputLabelled(h, form, 'Colour')]: 'green',
      },
    });
    expect(delivery.status).toBe(200);
    const result = await postedInDm(h, 'U1', (c) => resultText(c.args.blocks).includes('name='));
    expect(resultText(result.args.blocks)).toContain('name=Ada age=36 colour=green');
    expect(cards('U1')).toHaveLength(1);
  });

  it('declines every request of the round when the one card is declined', async () => {
    const card = await h.run('U3', 'three_requests', {}, 'modern');
    expect(cards('U3')).toHaveLength(1);
    await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_decline' });
    const result = await postedInDm(h, 'U3', (c) => resultText(c.args.blocks).includes('name='));
    expect(resultText(result.args.blocks)).toContain('name=declined age=declined colour=declined');
  });
});
