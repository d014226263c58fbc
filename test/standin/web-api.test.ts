import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, StandinError, startSlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, callApi, cardBlocks, modal, plain } from './helpers.js';

let standin: SlackStandin;

beforeEach(async () => {
  standin = await startSlackStandin({
    botToken: BOT_TOKEN,
    teamId: 'T9',
    users: { U2: { name: 'li.wei', locale: 'zh-CN', tz: 'Asia/Shanghai' } },
  });
});
afterEach(() => standin.close());

describe('Slack stand-in: identity and conversations', () => {
  it('serves its API under a base URL ending in a slash, for WebClient', () => {
    expect(standin.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
  });

  it('answers auth.test with the ids Bolt needs before it runs listeners', async () => {
    const { body } = await callApi(standin, 'auth.test');
    expect(body).toMatchObject({ ok: true, team_id: 'T9', user_id: 'U0STANDINBOT', bot_id: 'B0STANDINBOT' });
    expect(body.url).toBe('https://standin.slack.com/');
  });

  it('answers each call latencyMs after it came in, as a distant Slack does', async () => {
    const distant = await startSlackStandin({ botToken: BOT_TOKEN, latencyMs: 150 });
    try {
      const sent = performance.now();
      expect((await callApi(distant, 'auth.test')).body.ok).toBe(true);
      // A timer fires no sooner than asked; 1 ms for the clocks' rounding.
      expect(performance.now() - sent).toBeGreaterThanOrEqual(149);
    } finally {
      await distant.close();
    }
  });

  it('opens one stable D… channel per user', async () => {
    const a = await callApi(standin, 'conversations.open', { users: 'U1' });
    const again = await callApi(standin, 'conversations.open', { users: 'U1' });
    const b = await callApi(standin, 'conversations.open', { users: 'U2' });
    expect(a.body.channel).toEqual({ id: standin.dmChannelOf('U1') });
    expect(again.body.channel).toEqual(a.body.channel);
    expect((b.body.channel as { id: string }).id).not.toBe((a.body.channel as { id: string }).id);
    expect(standin.dmChannelOf('U1')).toMatch(/^D/);
  });

  it('opens one stable G… multi-person DM per set of users, and refuses more than 8', async () => {
    const group = await callApi(standin, 'conversations.open', { users: 'U1,U2,U3' });
    const reordered = await callApi(standin, 'conversations.open', { users: 'U3,U1,U2' });
    expect(group.body.channel).toEqual({ id: standin.mpimChannelOf(['U1', 'U2', 'U3']) });
    expect(reordered.body.channel).toEqual(group.body.channel);
    expect((group.body.channel as { id: string }).id).toMatch(/^G/);
    const nine = Array.from({ length: 9 }, (_, i) => `U${i + 1}`).join(',');
    expect((await callApi(standin, 'conversations.open', { users: nine })).body).toMatchObject({
      ok: false,
      error: 'too_many_users',
    });
    expect((await callApi(standin, 'conversations.open', { users: 'U1,bob' })).body.error).toBe(
      'user_not_found',
    );
  });

  it('answers users.info with the configured name, and the locale when asked', async () => {
    const { body } = await callApi(standin, 'users.info', { user: 'U2', include_locale: true });
    expect(body.user).toMatchObject({ id: 'U2', name: 'li.wei', tz: 'Asia/Shanghai', locale: 'zh-CN' });
    expect((await callApi(standin, 'users.info', { user: 'U2' })).body.user).not.toHaveProperty('locale');
  });

  it('accepts application/json bodies as well as forms', async () => {
    const { body } = await callApi(standin, 'conversations.open', { users: 'U1' }, { json: true });
    expect(body.ok).toBe(true);
  });
});

describe('Slack stand-in: messages', () => {
  it('posts with a unique ts and returns the message, with generated block_ids', async () => {
    const channel = standin.dmChannelOf('U1');
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'no id' } }, ...cardBlocks()];
    const first = await callApi(standin, 'chat.postMessage', { channel, text: 'card', blocks });
    const second = await callApi(standin, 'chat.postMessage', { channel, text: 'again' });
    expect(first.body).toMatchObject({
      ok: true,
      channel,
      message: { type: 'message', text: 'card', bot_id: 'B0STANDINBOT' },
    });
    expect(first.body.ts).not.toBe(second.body.ts);
    const stored = standin.message(channel, String(first.body.ts));
    expect((stored?.blocks?.[0] as { block_id?: string }).block_id).toEqual(expect.any(String) as unknown);
    expect(standin.messagesIn(channel).map((m) => m.text)).toEqual(['card', 'again']);
  });

  it('posts to the DM when the channel is a user id', async () => {
    const reply = await callApi(standin, 'chat.postMessage', { channel: 'U1', text: 'hi' });
    expect(reply.body.channel).toBe(standin.dmChannelOf('U1'));
  });

  it('updates text and counts updates, keeping blocks when none are sent', async () => {
    const channel = standin.dmChannelOf('U1');
    const posted = await callApi(standin, 'chat.postMessage', {
      channel,
      text: 'card',
      blocks: cardBlocks(),
    });
    const ts = String(posted.body.ts);
    const reply = await callApi(standin, 'chat.update', { channel, ts, text: 'Declined' });
    expect(reply.body).toMatchObject({ ok: true, channel, ts, text: 'Declined' });
    expect(standin.message(channel, ts)).toMatchObject({
      text: 'Declined',
      updates: 1,
      blocks: cardBlocks(),
    });
  });

  it('records ephemeral messages for their user', async () => {
    const reply = await callApi(standin, 'chat.postEphemeral', {
      channel: 'C0GENERAL',
      user: 'U1',
      text: 'only you',
    });
    expect(reply.body).toMatchObject({ ok: true, message_ts: expect.any(String) as unknown });
    expect(standin.ephemeralsFor('U1')).toEqual([{ channel: 'C0GENERAL', userId: 'U1', text: 'only you' }]);
  });
});

describe('Slack stand-in: views', () => {
  it('opens a view and returns it as Slack does', async () => {
    const view = modal({ private_metadata: 'q1', notify_on_close: true, external_id: 'q1' });
    const { body } = await callApi(standin, 'views.open', { trigger_id: standin.issueTriggerId('U1'), view });
    const opened = body.view as Record<string, unknown>;
    expect(opened).toMatchObject({
      id: expect.stringMatching(/^V/) as unknown,
      team_id: 'T9',
      type: 'modal',
      callback_id: 'form',
      private_metadata: 'q1',
      state: { values: {} },
      hash: expect.any(String) as unknown,
      title: plain('Form'),
      submit: plain('Send'),
      close: null,
      notify_on_close: true,
      previous_view_id: null,
      root_view_id: opened.id,
      external_id: 'q1',
    });
    expect(standin.view(String(opened.id))).toMatchObject({ userId: 'U1', open: true });
  });

  it('updates by external_id with a new hash, and pushes on top of the root', async () => {
    const open = await callApi(standin, 'views.open', {
      trigger_id: standin.issueTriggerId('U1'),
      view: modal({ external_id: 'ext-1' }),
    });
    const root = open.body.view as { id: string; hash: string };
    const updated = await callApi(standin, 'views.update', {
      external_id: 'ext-1',
      view: modal({ title: plain('Page 2') }),
    });
    expect(updated.body.view).toMatchObject({ id: root.id, title: plain('Page 2') });
    expect((updated.body.view as { hash: string }).hash).not.toBe(root.hash);
    const pushed = await callApi(standin, 'views.push', {
      trigger_id: standin.issueTriggerId('U1'),
      view: modal(),
    });
    expect(pushed.body.view).toMatchObject({ previous_view_id: root.id, root_view_id: root.id });
    expect(standin.openViews('U1').map((v) => v.id)).toEqual([
      root.id,
      (pushed.body.view as { id: string }).id,
    ]);
  });

  it('publishes a Home tab per user', async () => {
    const home = { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Inbox' } }] };
    const { body } = await callApi(standin, 'views.publish', { user_id: 'U1', view: home });
    expect(body).toMatchObject({ ok: true, view: { type: 'home' } });
    expect(standin.homeOf('U1')).toEqual(body.view);
  });
});

describe('Slack stand-in: response_url and waiting', () => {
  it('applies replace_original to the message acted on and records the call', async () => {
    const channel = standin.dmChannelOf('U1');
    const posted = await callApi(standin, 'chat.postMessage', {
      channel,
      text: 'card',
      blocks: cardBlocks(),
    });
    const url = standin.responseUrl({ channel, userId: 'U1', messageTs: String(posted.body.ts) });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ replace_original: true, text: 'Answered' }),
    });
    expect([res.status, await res.json()]).toEqual([200, { ok: true }]);
    expect(standin.message(channel, String(posted.body.ts))).toMatchObject({ text: 'Answered', updates: 1 });
    expect((await standin.waitForCall('response_url')).args).toMatchObject({ replace_original: true });
  });

  it('posts ephemerally by default, and 404s an unknown response_url', async () => {
    const url = standin.responseUrl({ channel: 'C0GENERAL', userId: 'U1' });
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"done"}',
    });
    expect(standin.ephemeralsFor('U1').map((e) => e.text)).toEqual(['done']);
    expect((await fetch(`${url}x`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('resolves waitForCall for a call made later, matching the predicate', async () => {
    const waiting = standin.waitForCall('chat.postMessage', (c) => c.args.text === 'second');
    const channel = standin.dmChannelOf('U1');
    await callApi(standin, 'chat.postMessage', { channel, text: 'first' });
    await callApi(standin, 'chat.postMessage', { channel, text: 'second' });
    expect((await waiting).args.text).toBe('second');
  });

  it('rejects waitForCall with a typed error when nothing matches in time', async () => {
    const error = await standin.waitForCall('chat.update', undefined, 20).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StandinError);
    expect((error as StandinError).code).toBe('wait_timeout');
  });
});
