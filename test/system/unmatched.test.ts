// Interactions no listener takes are acked at once with 200, instead of Bolt's 404 after its 3 s wait (which
// Slack shows the person as an error): a notice view's submit and close, and a click on an unknown button.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** Who acts, as Slack names them in every interaction payload. */
function actor(userId: string) {
  return {
    team: { id: 'T0STANDIN', domain: 'standin' },
    user: { id: userId, username: userId.toLowerCase(), name: userId.toLowerCase(), team_id: 'T0STANDIN' },
    api_app_id: h.standin.identity.appId,
  };
}

/** A modal no listener registered, such as the notice that replaces a form whose question ended. */
const noticeView = {
  id: 'V0NOTICE',
  type: 'modal',
  callback_id: 'elicit_notice',
  private_metadata: '',
  title: { type: 'plain_text', text: 'Question ended' },
  blocks: [],
  state: { values: {} },
  hash: '1.1',
  notify_on_close: true,
};

describe('an interaction that no listener takes', () => {
  it('acks the submission of an unknown view with 200', async () => {
    const payload = {
      type: 'view_submission',
      ...actor('U1'),
      trigger_id: h.standin.issueTriggerId('U1'),
      view: noticeView,
      response_urls: [],
    };
    const delivery = await h.driver.send({ payload });
    expect(delivery.status).toBe(200);
    expect(delivery.body).toBe('');
  });

  it('acks the close of an unknown view with 200', async () => {
    const payload = { type: 'view_closed', ...actor('U1'), view: noticeView, is_cleared: false };
    expect((await h.driver.send({ payload })).status).toBe(200);
  });

  it('acks a click on a button no listener takes with 200', async () => {
    const payload = {
      type: 'block_actions',
      ...actor('U1'),
      trigger_id: h.standin.issueTriggerId('U1'),
      container: { type: 'view', view_id: noticeView.id },
      view: noticeView,
      actions: [
        {
          type: 'button',
          action_id: 'elicit_unknown',
          block_id: 'b',
          text: { type: 'plain_text', text: 'OK' },
          action_ts: '1.1',
        },
      ],
    };
    expect((await h.driver.send({ payload })).status).toBe(200);
  });
});
