// App Home lists only what the person can act on. A server whose questions go to an approvals channel with
// `answerers: { requester: false, … }` does not put the question in the requester's App Home inbox, with
// Respond / Decline buttons that could only be refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startApprovals, type Harness } from '../system/harness.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean', title: 'OK?' } } };
type Block = { type: string; elements?: { action_id?: string; value?: string }[] };

const buttonValues = (call: RecordedCall, actionId: string): string[] =>
  ((call.args.view as { blocks: Block[] }).blocks ?? [])
    .flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []))
    .filter((e) => e.action_id === actionId)
    .map((e) => e.value ?? '');

describe('the App Home of a requester who may not answer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApprovals(['UAPPX']);
  });
  afterAll(() => h.close());

  it('does not list a question the requester may not answer (requester: false) in their App Home', async () => {
    const args = JSON.stringify({ message: 'Roll back?', schema: SCHEMA });
    await h.driver.slashCommand({ userId: 'UREQ', command: '/mcp', text: `run fixture ask ${args}` });
    const posted = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === 'C0APPROVE' && JSON.stringify(c.args).includes('Roll back?'),
      30_000,
    );
    const id = questionIdOnCard(posted.args.blocks);
    // The approver's Home lists it (sanity).
    await h.standin.waitForCall(
      'views.publish',
      (c) => c.ok && c.args.user_id === 'UAPPX' && buttonValues(c, 'elicit_respond').includes(id),
      15_000,
    );
    // The requester opens their Home tab.
    const before = h.standin.calls.length;
    expect((await h.driver.openHome('UREQ')).status).toBe(200);
    const home = await h.standin.waitForCall(
      'views.publish',
      (c) => c.ok && c.args.user_id === 'UREQ' && h.standin.calls.indexOf(c) >= before,
      15_000,
    );
    expect(
      buttonValues(home, 'elicit_respond'),
      'the requester (requester: false) must not be offered Respond on a question only UAPPX may answer',
    ).not.toContain(id);
    expect(buttonValues(home, 'elicit_decline'), 'nor Decline').not.toContain(id);
  });
});
