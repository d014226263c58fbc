// The Slack driver plays Slack's side towards a bot: signed requests, slash commands, clicks on a message's
// buttons and the App Home, each in the shape Slack sends (its modals: driver-views.test.ts).
import { describe, expect, it } from 'vitest';
import {
  type SlackDriver,
  type SlackStandin,
  type StandinError,
  VERIFICATION_TOKEN,
} from '../../src/standin/index.js';
import { callApi, modal, plain } from './helpers.js';
import type { Receiver } from './receiver.js';
import { last, postCard, rigEachTest, team, userObj } from './driver-rig.js';

let standin: SlackStandin, receiver: Receiver, driver: SlackDriver;
rigEachTest((rig) => ({ standin, receiver, driver } = rig));

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
    const fields = last(receiver);
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
    const card = await postCard(standin);
    await driver.clickButton({ userId: 'U1', ...card, actionId: 'respond' });
    const p = last(receiver);
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
    const card = await postCard(standin);
    await driver.clickButton({ userId: 'U1', ...card, actionId: 'decline' });
    await driver.clickButton({ userId: 'U1', ...card, actionId: 'decline' });
    const [a, b] = receiver.received.map((r) => r.parsed);
    expect((a?.actions as Record<string, unknown>[])[0]).not.toHaveProperty('style');
    expect(a?.trigger_id).not.toBe(b?.trigger_id);
  });

  it('refuses to click a button the message does not have', async () => {
    const card = await postCard(standin);
    const error = await driver
      .clickButton({ userId: 'U1', ...card, actionId: 'nope' })
      .catch((e: unknown) => e);
    expect((error as StandinError).code).toBe('button_not_found');
  });

  it('lets the bot replace the card through the response_url', async () => {
    const card = await postCard(standin);
    await driver.clickButton({ userId: 'U1', ...card, actionId: 'decline' });
    await fetch(String(last(receiver).response_url), {
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
    const first = last(receiver);
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
    expect((last(receiver).event as Record<string, unknown>).view).toEqual(body.view);
    expect(last(receiver).event_id).not.toBe(first.event_id);
  });

  it('clicks a Home button with the view, a trigger_id and no response_url', async () => {
    const { body } = await callApi(standin, 'views.publish', { user_id: 'U1', view: home });
    await driver.clickHomeButton({ userId: 'U1', actionId: 'decline', value: 'q2' });
    const p = last(receiver);
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
