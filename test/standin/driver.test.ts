import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SlackDriver,
  type SlackStandin,
  StandinError,
  VERIFICATION_TOKEN,
  startSlackStandin,
} from '../../src/standin/index.js';
import { BOT_TOKEN, callApi, cardBlocks, modal, option, plain } from './helpers.js';
import { type Receiver, SIGNING_SECRET, startReceiver } from './receiver.js';

let standin: SlackStandin;
let receiver: Receiver;
let driver: SlackDriver;

beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN, teamId: 'T9', users: { U1: { name: 'ada' } } });
  receiver = await startReceiver();
  driver = new SlackDriver({ eventsUrl: receiver.url, signingSecret: SIGNING_SECRET, standin });
});
afterEach(async () => {
  await receiver.close();
  await standin.close();
});

const last = (): Record<string, unknown> => receiver.received[receiver.received.length - 1]?.parsed ?? {};
const userObj = { id: 'U1', username: 'ada', name: 'ada', team_id: 'T9' };
const team = { id: 'T9', domain: 'standin' };

async function postCard(): Promise<{ channel: string; ts: string }> {
  const channel = standin.dmChannelOf('U1');
  const { body } = await callApi(standin, 'chat.postMessage', {
    channel,
    text: 'card',
    blocks: cardBlocks(),
  });
  return { channel, ts: String(body.ts) };
}

async function openModal(view: Record<string, unknown> = modal()): Promise<string> {
  const { body } = await callApi(standin, 'views.open', { trigger_id: standin.issueTriggerId('U1'), view });
  return (body.view as { id: string }).id;
}

describe('Slack driver: signing', () => {
  it('signs requests so a Bolt-style verifier accepts them', async () => {
    const reply = await driver.slashCommand({ userId: 'U1', command: '/mcp', text: 'help' });
    expect(reply.status).toBe(200);
    expect(receiver.received[0]?.contentType).toBe('application/x-www-form-urlencoded');
  });

  it('sends forged, stale and tampered requests that the verifier refuses', async () => {
    const payload = { payload: { type: 'block_actions' } };
    const stale = Math.floor(Date.now() / 1000) - 301;
    expect((await driver.send(payload, { secret: 'wrong' })).status).toBe(401);
    expect((await driver.send(payload, { timestampSec: stale })).status).toBe(401);
    expect((await driver.send(payload, { tamper: true })).status).toBe(401);
    expect((await driver.send(payload, { timestampSec: stale + 3600 })).status).toBe(200);
    expect(receiver.received).toHaveLength(1);
  });

  it('sends Events API envelopes as JSON', async () => {
    const reply = await driver.send({ json: { type: 'event_callback', event: { type: 'app_home_opened' } } });
    expect([reply.status, receiver.received[0]?.contentType]).toEqual([200, 'application/json']);
  });
});

describe('Slack driver: slash commands', () => {
  it('sends exactly the fields Slack sends, with a working trigger_id and response_url', async () => {
    await driver.slashCommand({ userId: 'U1', command: '/mcp', text: 'run srv tool {}' });
    const fields = last();
    expect(Object.keys(fields)).toEqual([
      'token',
      'team_id',
      'team_domain',
      'channel_id',
      'channel_name',
      'user_id',
      'user_name',
      'command',
      'text',
      'api_app_id',
      'is_enterprise_install',
      'response_url',
      'trigger_id',
    ]);
    expect(fields).toMatchObject({
      token: VERIFICATION_TOKEN,
      team_id: 'T9',
      channel_id: standin.dmChannelOf('U1'),
      channel_name: 'directmessage',
      user_name: 'ada',
      command: '/mcp',
      text: 'run srv tool {}',
      is_enterprise_install: 'false',
    });
    const opened = await callApi(standin, 'views.open', { trigger_id: fields.trigger_id, view: modal() });
    expect(opened.body.ok).toBe(true);
    const res = await fetch(String(fields.response_url), { method: 'POST', body: '{"text":"ok"}' });
    expect(res.status).toBe(200);
  });
});

describe('Slack driver: block_actions', () => {
  it('clicks a button with the block_actions shape Slack sends', async () => {
    const card = await postCard();
    await driver.clickButton({ userId: 'U1', ...card, actionId: 'respond' });
    const p = last();
    expect(p).toMatchObject({
      type: 'block_actions',
      user: userObj,
      api_app_id: standin.identity.appId,
      token: VERIFICATION_TOKEN,
      container: { type: 'message', message_ts: card.ts, channel_id: card.channel, is_ephemeral: false },
      team,
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: card.channel, name: 'directmessage' },
      message: standin.messageObject(card.channel, card.ts),
      state: { values: {} },
    });
    expect(p.actions).toEqual([
      {
        action_id: 'respond',
        block_id: 'act',
        text: plain('Respond'),
        value: 'q1',
        style: 'primary',
        type: 'button',
        action_ts: expect.stringMatching(/^\d+\.\d{6}$/) as unknown,
      },
    ]);
    const opened = await callApi(standin, 'views.open', { trigger_id: p.trigger_id, view: modal() });
    expect(opened.body.ok).toBe(true);
  });

  it('omits style for a default button and gives each click a fresh trigger_id', async () => {
    const card = await postCard();
    await driver.clickButton({ userId: 'U1', ...card, actionId: 'decline' });
    await driver.clickButton({ userId: 'U1', ...card, actionId: 'decline' });
    const [a, b] = receiver.received.map((r) => r.parsed);
    expect((a?.actions as Record<string, unknown>[])[0]).not.toHaveProperty('style');
    expect(a?.trigger_id).not.toBe(b?.trigger_id);
  });

  it('refuses to click a button the message does not have', async () => {
    const card = await postCard();
    const error = await driver
      .clickButton({ userId: 'U1', ...card, actionId: 'nope' })
      .catch((e: unknown) => e);
    expect((error as StandinError).code).toBe('button_not_found');
  });

  it('lets the bot replace the card through the response_url', async () => {
    const card = await postCard();
    await driver.clickButton({ userId: 'U1', ...card, actionId: 'decline' });
    await fetch(String(last().response_url), {
      method: 'POST',
      body: '{"replace_original":true,"text":"Declined"}',
    });
    expect(standin.message(card.channel, card.ts)).toMatchObject({ text: 'Declined', updates: 1 });
  });
});

describe('Slack driver: App Home', () => {
  // Two Decline buttons, one per question, in blocks of their own (action_ids are unique per block).
  const home = {
    type: 'home',
    blocks: ['q1', 'q2'].map((q, i) => ({
      type: 'actions',
      block_id: `home_q${i}`,
      elements: [{ type: 'button', action_id: 'decline', text: plain('Decline'), value: q }],
    })),
  };

  it('delivers app_home_opened in the Events API envelope, with the Home view once one is published', async () => {
    await driver.openHome('U1');
    const first = last();
    expect(receiver.received[0]?.contentType).toBe('application/json');
    expect(first).toMatchObject({
      token: VERIFICATION_TOKEN,
      team_id: 'T9',
      api_app_id: standin.identity.appId,
      type: 'event_callback',
      event_id: expect.stringMatching(/^Ev[0-9A-Z]+$/) as unknown,
      event_time: expect.any(Number) as unknown,
      authorizations: [
        {
          enterprise_id: null,
          team_id: 'T9',
          user_id: standin.identity.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
      event: {
        type: 'app_home_opened',
        user: 'U1',
        channel: standin.dmChannelOf('U1'),
        tab: 'home',
        event_ts: expect.stringMatching(/^\d+\.\d{6}$/) as unknown,
      },
    });
    expect(first.event).not.toHaveProperty('view');

    const { body } = await callApi(standin, 'views.publish', { user_id: 'U1', view: home });
    await driver.openHome('U1');
    expect((last().event as Record<string, unknown>).view).toEqual(body.view);
    expect(last().event_id).not.toBe(first.event_id);
  });

  it('clicks a Home button with the view, a trigger_id and no response_url', async () => {
    const { body } = await callApi(standin, 'views.publish', { user_id: 'U1', view: home });
    await driver.clickHomeButton({ userId: 'U1', actionId: 'decline', value: 'q2' });
    const p = last();
    expect(p).toMatchObject({
      type: 'block_actions',
      user: userObj,
      team,
      container: { type: 'view', view_id: (body.view as { id: string }).id },
      view: body.view,
      actions: [{ action_id: 'decline', block_id: 'home_q1', value: 'q2', type: 'button' }],
    });
    expect(p).not.toHaveProperty('response_url');
    expect(p).not.toHaveProperty('message');
    const opened = await callApi(standin, 'views.open', { trigger_id: p.trigger_id, view: modal() });
    expect(opened.body.ok).toBe(true);
  });

  it('refuses to click on a Home tab that was never published, or a button it does not have', async () => {
    const unpublished = await driver
      .clickHomeButton({ userId: 'U1', actionId: 'decline' })
      .catch((e: unknown) => e);
    expect((unpublished as StandinError).code).toBe('home_not_published');
    await callApi(standin, 'views.publish', { user_id: 'U1', view: home });
    const missing = await driver
      .clickHomeButton({ userId: 'U1', actionId: 'decline', value: 'q9' })
      .catch((e: unknown) => e);
    expect((missing as StandinError).code).toBe('button_not_found');
  });
});

describe('Slack driver: view_submission and view_closed', () => {
  it('submits with the view_submission shape Slack sends, and an empty ack closes the view', async () => {
    const viewId = await openModal(modal({ private_metadata: 'q1' }));
    const reply = await driver.submitView({ userId: 'U1', viewId, values: { name: 'Ada' } });
    expect(reply.status).toBe(200);
    const p = last();
    expect(Object.keys(p).sort()).toEqual(
      [
        'api_app_id',
        'enterprise',
        'is_enterprise_install',
        'response_urls',
        'team',
        'token',
        'trigger_id',
        'type',
        'user',
        'view',
      ].sort(),
    );
    expect(p).toMatchObject({
      type: 'view_submission',
      user: userObj,
      team,
      response_urls: [],
      enterprise: null,
    });
    expect(p.view).toMatchObject({
      id: viewId,
      callback_id: 'form',
      private_metadata: 'q1',
      hash: standin.view(viewId)?.view.hash,
      state: { values: { name: { v: { type: 'plain_text_input', value: 'Ada' } } } },
    });
    expect(standin.view(viewId)?.open).toBe(false);
  });

  it('keeps the view open with field errors after response_action errors', async () => {
    const viewId = await openModal();
    receiver.reply = () => ({ body: { response_action: 'errors', errors: { name: 'Too short' } } });
    const reply = await driver.submitView({ userId: 'U1', viewId, values: { name: 'A' } });
    expect(reply.json).toEqual({ response_action: 'errors', errors: { name: 'Too short' } });
    expect(standin.view(viewId)).toMatchObject({ open: true, errors: { name: 'Too short' } });
  });

  it('records an invalid response_action view as a failed response_action call', async () => {
    const viewId = await openModal();
    receiver.reply = () => ({
      body: { response_action: 'update', view: modal({ title: plain('x'.repeat(30)) }) },
    });
    await driver.submitView({ userId: 'U1', viewId, values: { name: 'Ada' } });
    const call = await standin.waitForCall('response_action');
    expect([call.ok, call.error]).toEqual([false, 'invalid_arguments']);
  });

  it('applies response_action update in place and errors keyed by a non-input block as a failure', async () => {
    const viewId = await openModal();
    receiver.reply = () => ({ body: { response_action: 'update', view: modal({ title: plain('Thanks') }) } });
    await driver.submitView({ userId: 'U1', viewId, values: { name: 'Ada' } });
    expect(standin.view(viewId)?.view.title).toEqual(plain('Thanks'));
    receiver.reply = () => ({ body: { response_action: 'errors', errors: { nope: 'x' } } });
    await driver.submitView({ userId: 'U1', viewId, values: { name: 'Ada' } });
    expect(standin.calls.filter((c) => c.method === 'response_action').map((c) => c.ok)).toEqual([
      true,
      false,
    ]);
  });

  it('sends view_closed for a notify_on_close view and closes it', async () => {
    const viewId = await openModal(modal({ notify_on_close: true }));
    await driver.closeView({ userId: 'U1', viewId });
    expect(last()).toMatchObject({
      type: 'view_closed',
      team,
      user: userObj,
      token: VERIFICATION_TOKEN,
      view: { id: viewId, notify_on_close: true },
      is_cleared: false,
      is_enterprise_install: false,
    });
    expect(standin.view(viewId)?.open).toBe(false);
  });

  it('goes back from a pushed view to the one under it, and a submit that pushes keeps the view under it', async () => {
    const root = await openModal(modal({ notify_on_close: true }));
    receiver.reply = () => ({
      body: { response_action: 'push', view: modal({ title: plain('Review'), notify_on_close: true }) },
    });
    await driver.submitView({ userId: 'U1', viewId: root, values: { name: 'Ada' } });
    const [under, pushed] = standin.openViews('U1');
    expect(under?.id).toBe(root);
    expect(pushed?.view).toMatchObject({
      title: plain('Review'),
      previous_view_id: root,
      root_view_id: root,
    });
    const notOnTop = await driver.closeView({ userId: 'U1', viewId: root }).catch((e: unknown) => e);
    expect((notOnTop as StandinError).code).toBe('view_not_on_top');
    await driver.closeView({ userId: 'U1', viewId: pushed?.id ?? '' });
    expect(last()).toMatchObject({ type: 'view_closed', view: { id: pushed?.id }, is_cleared: false });
    expect(standin.openViews('U1').map((v) => v.id)).toEqual([root]);
  });

  it('clears the whole stack with the X, telling the view on top that the stack was cleared', async () => {
    const root = await openModal(modal());
    const { body } = await callApi(standin, 'views.push', {
      trigger_id: standin.issueTriggerId('U1'),
      view: modal({ title: plain('Review'), notify_on_close: true }),
    });
    const pushed = (body.view as { id: string }).id;
    await driver.closeView({ userId: 'U1', viewId: pushed, clearStack: true });
    expect(last()).toMatchObject({ type: 'view_closed', view: { id: pushed }, is_cleared: true });
    expect(standin.openViews('U1')).toEqual([]);
    expect([standin.view(root)?.open, standin.view(pushed)?.open]).toEqual([false, false]);
  });

  it('asks the app for external select options as the person types, and lets them pick only those', async () => {
    const city = { type: 'external_select', action_id: 'pick', min_query_length: 2 };
    const viewId = await openModal(
      modal({ blocks: [{ type: 'input', block_id: 'city', label: plain('City'), element: city }] }),
    );
    receiver.reply = () => ({ body: { options: [option('Osaka', 'o3')] } });
    const early = await driver
      .suggest({ userId: 'U1', viewId, actionId: 'pick', value: 'o' })
      .catch((e: unknown) => e);
    expect((early as StandinError).code).toBe('query_too_short');
    expect(await driver.suggest({ userId: 'U1', viewId, actionId: 'pick', value: 'os' })).toEqual([
      option('Osaka', 'o3'),
    ]);
    expect(last()).toMatchObject({
      type: 'block_suggestion',
      team,
      user: userObj,
      token: VERIFICATION_TOKEN,
      container: { type: 'view', view_id: viewId },
      action_id: 'pick',
      block_id: 'city',
      value: 'os',
      view: { id: viewId },
    });
    receiver.reply = () => ({});
    const unsuggested = await driver
      .submitView({ userId: 'U1', viewId, values: { city: 'o4' } })
      .catch((e: unknown) => e);
    expect((unsuggested as StandinError).code).toBe('option_not_found');
    await driver.submitView({ userId: 'U1', viewId, values: { city: 'o3' } });
    expect((last().view as { state: unknown }).state).toEqual({
      values: {
        city: {
          pick: {
            type: 'external_select',
            selected_option: { ...option('Osaka', 'o3'), text: { ...plain('Osaka'), emoji: true } },
          },
        },
      },
    });
  });

  it('refuses an answer to block_suggestion that Slack would not show', async () => {
    const city = { type: 'external_select', action_id: 'pick', min_query_length: 1 };
    const viewId = await openModal(
      modal({ blocks: [{ type: 'input', block_id: 'city', label: plain('City'), element: city }] }),
    );
    const many = Array.from({ length: 101 }, (_, i) => option(`c${i}`));
    for (const body of [{ options: many }, { options: [option('x'.repeat(76))] }, {}]) {
      receiver.reply = () => ({ body });
      const thrown = await driver
        .suggest({ userId: 'U1', viewId, actionId: 'pick', value: 'c' })
        .catch((e: unknown) => e);
      expect((thrown as StandinError).code).toBe('invalid_suggestions');
    }
  });

  it('refuses to close a view without notify_on_close, or one that belongs to someone else', async () => {
    const viewId = await openModal();
    const silent = await driver.closeView({ userId: 'U1', viewId }).catch((e: unknown) => e);
    expect(silent).toBeInstanceOf(StandinError);
    expect((silent as StandinError).code).toBe('notify_on_close_not_set');
    const foreign = await driver.submitView({ userId: 'U2', viewId, values: {} }).catch((e: unknown) => e);
    expect((foreign as StandinError).code).toBe('view_not_owned');
  });
});
