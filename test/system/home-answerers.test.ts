// App Home for the people a question names as answerers: a question routed to an approvals channel is in
// every listed approver's and user-group member's inbox while it waits, leaves all of them when one answers,
// and goes to the recent answers of the one who answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startApprovals, type Harness } from './harness.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean', title: 'OK?' } } };

type Block = { type: string; elements?: { action_id?: string; value?: string; text?: string }[] };

const respondIds = (call: RecordedCall): string[] =>
  ((call.args.view as { blocks: Block[] }).blocks ?? [])
    .flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []))
    .filter((e) => e.action_id === 'elicit_respond')
    .map((e) => e.value ?? '');

describe('App Home of named answerers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApprovals(['UAPPX'], { S0ONCALL: ['UONC1', 'UONC2'] });
  });
  afterAll(() => h.close());

  const published = (userId: string, matches: (call: RecordedCall) => boolean) =>
    h.standin.waitForCall('views.publish', (c) => c.ok && c.args.user_id === userId && matches(c), 15_000);

  it('lists the question for every named answerer, then for none once one declines', async () => {
    const args = JSON.stringify({ message: 'Roll back?', schema: SCHEMA });
    await h.driver.slashCommand({ userId: 'UREQ', command: '/mcp', text: `run fixture ask ${args}` });
    const posted = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === 'C0APPROVE' && JSON.stringify(c.args).includes('Roll back?'),
      15_000,
    );
    const id = questionIdOnCard(posted.args.blocks);
    for (const userId of ['UAPPX', 'UONC1', 'UONC2']) {
      await published(userId, (c) => respondIds(c).includes(id));
    }
    // The requester may not answer (requester: false), so it is not in their inbox.
    expect(
      h.standin.calls.filter(
        (c) => c.method === 'views.publish' && c.args.user_id === 'UREQ' && respondIds(c).includes(id),
      ),
    ).toEqual([]);

    const card = h.standin
      .messagesIn('C0APPROVE')
      .findLast((m) => JSON.stringify(m.blocks).includes('Roll back?'));
    await h.driver.clickButton({
      userId: 'UONC2',
      channel: 'C0APPROVE',
      ts: card?.ts ?? '',
      actionId: 'elicit_decline',
    });
    for (const userId of ['UAPPX', 'UONC1']) {
      await published(
        userId,
        (c) => !respondIds(c).includes(id) && JSON.stringify(c.args.view).includes('Nothing is waiting'),
      );
    }
    const decider = await published('UONC2', (c) => JSON.stringify(c.args.view).includes('Declined'));
    expect(respondIds(decider)).toEqual([]);
  });
});
