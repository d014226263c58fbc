// The stand-in and driver against the real Bolt 5 App and WebClient the bot uses.
import type { AddressInfo } from 'node:net';
import { App, LogLevel, type BlockButtonAction, webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackDriver, type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, cardBlocks, modal } from './helpers.js';

const SECRET = 'bolt-compat-secret';
let standin: SlackStandin;
let app: App;
let driver: SlackDriver;

function listeners(a: App): void {
  a.command('/mcp', async ({ ack, command, client, respond }) => {
    await ack();
    const dm = await client.conversations.open({ users: command.user_id });
    await client.chat.postMessage({
      channel: dm.channel?.id ?? '',
      text: 'card',
      blocks: cardBlocks() as never,
    });
    await respond({ text: 'Sent you a DM' });
  });
  a.action<BlockButtonAction>('respond', async ({ ack, body, client }) => {
    await ack();
    await client.views.open({ trigger_id: body.trigger_id, view: modal({ notify_on_close: true }) as never });
  });
  a.view('form', async ({ ack, view, client, body }) => {
    const name = view.state.values.name?.v?.value ?? '';
    if (name.length < 2) return ack({ response_action: 'errors', errors: { name: 'Too short' } });
    await ack();
    const card = standin.messagesIn(standin.dmChannelOf(body.user.id))[0];
    await client.chat.update({ channel: card?.channel ?? '', ts: card?.ts ?? '', text: `Answered: ${name}` });
  });
}

beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN });
  app = new App({
    token: BOT_TOKEN,
    signingSecret: SECRET,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: standin.apiUrl, retryConfig: { retries: 0 } },
  });
  listeners(app);
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as { address(): AddressInfo };
  const eventsUrl = `http://127.0.0.1:${server.address().port}/slack/events`;
  driver = new SlackDriver({ eventsUrl, signingSecret: SECRET, standin });
});
afterEach(async () => {
  await app.stop();
  await standin.close();
});

describe('Slack stand-in with Bolt 5', () => {
  it('carries a command, a click, an invalid and a valid submission through Bolt', async () => {
    expect((await driver.slashCommand({ userId: 'U1', command: '/mcp', text: 'run' })).status).toBe(200);
    const posted = await standin.waitForCall('chat.postMessage');
    expect((await standin.waitForCall('response_url')).args.text).toBe('Sent you a DM');
    expect(standin.calls[0]?.method).toBe('auth.test');
    const card = standin.messagesIn(String(posted.args.channel))[0];
    if (!card) throw new Error('no card');
    await driver.clickButton({ userId: 'U1', channel: card.channel, ts: card.ts, actionId: 'respond' });
    const opened = await standin.waitForCall('views.open');
    expect(opened.ok).toBe(true);
    const viewId = standin.openViews('U1')[0]?.id ?? '';
    const bad = await driver.submitView({ userId: 'U1', viewId, values: { name: 'A' } });
    expect(bad.json).toEqual({ response_action: 'errors', errors: { name: 'Too short' } });
    expect((await driver.submitView({ userId: 'U1', viewId, values: { name: 'Ada' } })).body).toBe('');
    await standin.waitForCall('chat.update');
    expect(standin.message(card.channel, card.ts)).toMatchObject({ text: 'Answered: Ada', updates: 1 });
    expect(standin.view(viewId)?.open).toBe(false);
  });

  it('gives 401 to forged and stale requests through Bolt', async () => {
    const payload = { payload: { type: 'block_actions', actions: [] } };
    expect((await driver.send(payload, { secret: 'nope' })).status).toBe(401);
    expect((await driver.send(payload, { timestampSec: Math.floor(Date.now() / 1000) - 301 })).status).toBe(
      401,
    );
  });

  it('lets WebClient see Slack errors and Retry-After', async () => {
    const client = new webApi.WebClient(BOT_TOKEN, {
      slackApiUrl: standin.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 2 });
    const limited = await client.chat.postMessage({ channel: 'C1', text: 'x' }).catch((e: unknown) => e);
    expect(limited).toMatchObject({ code: webApi.ErrorCode.RateLimitedError, retryAfter: 2 });
    const missing = await client.chat
      .update({ channel: 'C1', ts: '1.2', text: 'x' })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({
      code: webApi.ErrorCode.PlatformError,
      data: { error: 'message_not_found' },
    });
  });
});
