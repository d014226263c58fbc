// What a person entered is what the server gets: forged review submissions and forged page numbers relay
// nothing, and answers never ride in a view's private_metadata (issue 15, items 4 and 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionIdOnCard } from '../support/slack-text.js';
import { openForm, startHarness, type Harness } from './harness.js';
import { AGE_COLOR } from '../support/schemas.js';

const FIELDS = 25;
const ALL_REQUIRED = {
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: FIELDS }, (_, i) => [`q${i + 1}`, { type: 'string', title: `Question ${i + 1}` }]),
  ),
  required: Array.from({ length: FIELDS }, (_, i) => `q${i + 1}`),
};
const SIGN_IN = {
  type: 'object',
  properties: {
    password: { type: 'string', title: 'Password' },
    approve: { type: 'boolean', title: 'Approve the login' },
  },
  required: ['password', 'approve'],
};

type Block = { type: string; block_id: string };
const inputIds = (h: Harness, viewId: string): string[] =>
  ((h.standin.view(viewId)?.view.blocks ?? []) as Block[])
    .filter((b) => b.type === 'input')
    .map((b) => b.block_id);

/** A signed view_submission of `viewId` as it is, but with this callback_id, private_metadata and state. */
function forgedSubmission(
  h: Harness,
  userId: string,
  viewId: string,
  forged: { callback_id: string; private_metadata: string; values: object },
) {
  const view = h.standin.view(viewId)?.view ?? {};
  return h.driver.send({
    payload: {
      type: 'view_submission',
      team: { id: 'T0STANDIN', domain: 'standin' },
      user: { id: userId, username: userId, name: userId, team_id: 'T0STANDIN' },
      api_app_id: h.standin.identity.appId,
      trigger_id: h.standin.issueTriggerId(userId),
      view: {
        ...view,
        id: viewId,
        callback_id: forged.callback_id,
        private_metadata: forged.private_metadata,
        state: { values: forged.values },
      },
      response_urls: [],
    },
  });
}

const text = (value: string) => ({ type: 'plain_text_input', value });

describe('answers come from what the person entered, never from the view', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('does not relay the content of a forged review submission', async () => {
    const card = await h.ask('U1', AGE_COLOR, 'How old?');
    const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    const form = await openForm(h, 'U1', card);
    const forged = await forgedSubmission(h, 'U1', form, {
      callback_id: 'elicit_review',
      private_metadata: JSON.stringify({ q: id, c: { age: -5, color: 'purple', extra: 1 } }),
      values: {},
    });
    expect(forged.status).toBe(200);
    expect(h.standin.message(card.channel, card.ts)?.updates).toBe(0);
    const [ageBlock = '', colorBlock = ''] = inputIds(h, form);
    const done = await h.driver.submitView({
      userId: 'U1',
      viewId: form,
      values: { [ageBlock]: '41', [colorBlock]: 'red' },
    });
    expect(done.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { age: 41, color: 'red' } });
  });

  it('does not relay page two of an all-required form submitted as if it were the last page', async () => {
    const card = await h.ask('U2', ALL_REQUIRED, 'Everything, please');
    const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    const form = await openForm(h, 'U2', card);
    const lastFive = Array.from({ length: 5 }, (_, i) => `f${20 + i}_q${21 + i}`);
    const forged = await forgedSubmission(h, 'U2', form, {
      callback_id: 'elicit_form',
      private_metadata: JSON.stringify({ q: id, page: 1 }),
      values: Object.fromEntries(lastFive.map((block) => [block, { [block]: text('forged') }])),
    });
    expect(forged.status).toBe(200);
    expect(forged.body).not.toBe('');
    expect(h.standin.message(card.channel, card.ts)?.updates).toBe(0);
    await h.driver.clickButton({ userId: 'U2', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U2')).toEqual({ action: 'decline' });
  });
});

describe('a password-looking answer under review', () => {
  it('is in no view private_metadata, and Send relays it', async () => {
    const h = await startHarness({ slack: { review: true } });
    try {
      const card = await h.ask('U1', SIGN_IN, 'Log in?');
      const form = await openForm(h, 'U1', card);
      const [passwordBlock = '', approveBlock = ''] = inputIds(h, form);
      const secret = 'hunter2-do-not-echo';
      const pushed = await h.driver.submitView({
        userId: 'U1',
        viewId: form,
        values: { [passwordBlock]: secret, [approveBlock]: 'Yes' },
      });
      expect(pushed.json).toMatchObject({ response_action: 'push' });
      const views = h.standin.openViews('U1');
      expect(views).toHaveLength(2);
      for (const opened of views) expect(String(opened.view.private_metadata)).not.toContain(secret);
      const review = views.at(-1)?.id ?? '';
      const send = await h.driver.submitView({ userId: 'U1', viewId: review, values: {} });
      expect(send.json).toEqual({ response_action: 'clear' });
      expect(await h.toolResult('U1')).toEqual({
        action: 'accept',
        content: { password: secret, approve: true },
      });
    } finally {
      await h.close();
    }
  });
});
