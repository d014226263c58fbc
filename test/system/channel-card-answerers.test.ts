// A server routing to an approvals channel with named approvers (answerers.users, a user group) posts one card
// with Respond / Decline that every member of the channel sees: the card says who may answer, so the others
// know the buttons are not theirs before they click into a refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApprovals, type Harness } from './harness.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean', title: 'OK?' } } };

describe('an approvals-channel card with named approvers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApprovals(['UAPPX'], { S0ONCALL: ['UONC1'] });
  });
  afterAll(() => h.close());

  it('names who may answer on the actionable card posted to the whole channel', async () => {
    const args = JSON.stringify({ message: 'Approve deploy?', schema: SCHEMA });
    await h.driver.slashCommand({ userId: 'UREQ', command: '/mcp', text: `run fixture ask ${args}` });
    const posted = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === 'C0APPROVE' && JSON.stringify(c.args).includes('Approve deploy?'),
      30_000,
    );
    const card = JSON.stringify(posted.args.blocks);
    expect(card, 'sanity: the channel card is actionable').toContain('elicit_respond');
    expect(
      { namesApprover: card.includes('<@UAPPX>'), namesGroup: card.includes('<!subteam^S0ONCALL>') },
      'the card every channel member sees with Respond/Decline says only <@UAPPX> and <!subteam^S0ONCALL> may answer',
    ).toEqual({ namesApprover: true, namesGroup: true });
  });
});
