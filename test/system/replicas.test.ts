// Several replicas on one Redis: Slack's requests land on any replica, the outcome reaches the replica that
// holds the MCP session, and exactly one outcome wins whatever races.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

const SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string', title: 'Reason' } },
  required: ['reason'],
};

describe('three replicas behind one load balancer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ replicas: 3 });
  });
  afterAll(async () => {
    await h.close();
  });

  it('delivers a submit handled by another replica to the holder of the MCP session', async () => {
    const card = await h.ask('U1', SCHEMA);
    const [, second, third] = h.drivers;
    if (!second || !third) throw new Error('need three replicas');
    expect((await second.clickButton({ userId: 'U1', ...card, actionId: 'elicit_respond' })).status).toBe(
      200,
    );
    await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews('U1').length > 0);
    const [view] = h.standin.openViews('U1');
    const block =
      (view?.view.blocks as { type: string; block_id: string }[]).find((b) => b.type === 'input')?.block_id ??
      '';
    const submit = await third.submitView({
      userId: 'U1',
      viewId: view?.id ?? '',
      values: { [block]: 'ship it' },
    });
    expect(submit.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { reason: 'ship it' } });
  });

  it('replaces a person’s own open form when they decline from App Home on another replica', async () => {
    const card = await h.ask('U3', SCHEMA);
    const [, second, third] = h.drivers;
    if (!second || !third) throw new Error('need three replicas');
    const questionId = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    expect((await third.openHome('U3')).status).toBe(200);
    await h.standin.waitForCall(
      'views.publish',
      (c) => c.ok && c.args.user_id === 'U3' && JSON.stringify(c.args.view).includes(questionId),
    );
    await second.clickButton({ userId: 'U3', ...card, actionId: 'elicit_respond' });
    await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews('U3').length > 0);
    const [form] = h.standin.openViews('U3');
    const formId = form?.id ?? '';

    await third.clickHomeButton({ userId: 'U3', actionId: 'elicit_decline', value: questionId });
    expect(await h.toolResult('U3')).toEqual({ action: 'decline' });
    const update = await h.standin.waitForCall('views.update', (c) => c.ok && c.args.view_id === formId);
    expect(JSON.stringify(update.args.view)).toContain('Declined');
    expect(JSON.stringify(h.standin.view(formId)?.view)).not.toContain('"type":"input"');
    h.standin.settleClose(formId);
  });

  it('lets exactly one of simultaneous Decline clicks on every replica win', async () => {
    const card = await h.ask('U2', SCHEMA);
    const clicks = await Promise.all(
      [...h.drivers, ...h.drivers].map((driver) =>
        driver.clickButton({ userId: 'U2', ...card, actionId: 'elicit_decline' }),
      ),
    );
    expect(clicks.map((c) => c.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await h.toolResult('U2')).toEqual({ action: 'decline' });
    // Everyone who lost the race is told, kindly, that it was already declined.
    const losers = await waitForCalls(
      h,
      'response_url',
      (c) => JSON.stringify(c.args).includes('already been declined'),
      5,
    );
    expect(losers).toHaveLength(5);
    await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts);
    const updates = h.standin.calls.filter((c) => c.method === 'chat.update' && c.args.ts === card.ts);
    expect(updates).toHaveLength(1);
  });
});

/** Waits until `count` distinct calls match, each awaited as it is recorded. */
async function waitForCalls(
  h: Harness,
  method: string,
  match: (c: RecordedCall) => boolean,
  count: number,
): Promise<RecordedCall[]> {
  const found: RecordedCall[] = [];
  while (found.length < count) {
    found.push(await h.standin.waitForCall(method, (c) => match(c) && !found.includes(c)));
  }
  return found;
}
