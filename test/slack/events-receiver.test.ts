// Slack's HTTP requests through the bot's own receiver (src/slack/events-receiver.ts) into the real Bolt App:
// verified once against the bytes Slack signed, parsed once, and answered as Bolt's HTTPReceiver answered them
// (401 unsigned or forged, 400 signed but not Slack's shape, the certificate probe and URL verification).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { uniquePrefix } from '../setup/context.js';
import { startBoltApp, viewSubmission, type RunningBoltApp } from './support.js';

const BOT_TOKEN = 'xoxb-events-receiver';
const SECRET = 'events-receiver-secret';
const FORM = 'application/x-www-form-urlencoded';

function sign(body: Buffer, ts: string, secret = SECRET): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${ts}:`).update(body).digest('hex')}`;
}

describe('the events receiver', () => {
  let standin: SlackStandin;
  let app: RunningBoltApp;
  let url = '';
  const commands: string[] = [];
  const submitted: string[] = [];

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    app = await startBoltApp({
      standin,
      botToken: BOT_TOKEN,
      signingSecret: SECRET,
      prefix: uniquePrefix(),
      holderId: 'events-receiver',
      listen: ({ app: bolt }) => {
        bolt.command('/mcp', async ({ ack, command }) => {
          commands.push(command.text);
          await ack();
        });
        bolt.view('form', async ({ ack, view }) => {
          submitted.push(view.id);
          await ack({ response_action: 'errors', errors: { name: 'Too short' } });
        });
      },
    });
    url = app.eventsUrl;
  });
  afterAll(async () => {
    await app.close();
    await standin.close();
  });

  const post = (body: Buffer, contentType: string, signature?: string, ts = nowSec()): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': ts,
        ...(signature === undefined ? {} : { 'x-slack-signature': signature }),
      },
      body,
    });

  it("hands a signed submission's payload to its listener and answers with its ack", async () => {
    const view = { id: 'V0RCV', type: 'modal', callback_id: 'form', blocks: [], state: { values: {} } };
    const reply = await app.driver.send({ payload: viewSubmission(standin, 'U0RCV', view) });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ response_action: 'errors', errors: { name: 'Too short' } });
    expect(submitted).toEqual(['V0RCV']);
  });

  it('verifies the bytes Slack signed, not their text: a command with a byte that is not UTF-8', async () => {
    const body = Buffer.concat([Buffer.from('command=%2Fmcp&text=caf'), Buffer.from([0xe9])]);
    const ts = nowSec();
    expect((await post(body, FORM, sign(body, ts), ts)).status).toBe(200);
    expect(commands).toEqual(['caf\ufffd']);
  });

  it('answers 401 to a forged, unsigned or re-dated request, and 400 to a signed one of no Slack shape', async () => {
    const body = Buffer.from('command=%2Fmcp&text=forged');
    const ts = nowSec();
    expect((await post(body, FORM, sign(body, ts, 'not-the-secret'), ts)).status).toBe(401);
    expect((await post(body, FORM, undefined, ts)).status).toBe(401);
    expect((await post(body, FORM, 'v0=zz', ts)).status).toBe(401);
    expect((await post(body, FORM, sign(body, ts), String(Number(ts) - 1))).status).toBe(401);
    const unshaped = Buffer.from('[1,2]');
    expect((await post(unshaped, 'application/json', undefined, ts)).status).toBe(401);
    expect((await post(unshaped, 'application/json', sign(unshaped, ts), ts)).status).toBe(400);
    expect(commands).not.toContain('forged');
  });

  it("answers Slack's unsigned certificate probe and its URL verification", async () => {
    expect((await post(Buffer.from('ssl_check=1&token=x'), FORM)).status).toBe(200);
    const challenge = Buffer.from(JSON.stringify({ type: 'url_verification', challenge: 'c-123' }));
    const ts = nowSec();
    const reply = await post(challenge, 'application/json', sign(challenge, ts), ts);
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ challenge: 'c-123' });
  });

  // https://docs.slack.dev/reference/events/app_rate_limited/: a top-level type with no inner event, sent when a
  // workspace passes 30,000 events an hour (an App Home storm); deliveries not answered 200 count towards Slack
  // disabling the app's event subscriptions. Bolt finds no listener type in it and never acks it.
  it("answers Slack's app_rate_limited notice 200 at once and says which workspace is limited", async () => {
    const notice = {
      token: 't',
      type: 'app_rate_limited',
      team_id: 'T0LIMIT',
      minute_rate_limited: 1518467820,
    };
    const reply = await app.driver.send({ json: { ...notice, api_app_id: standin.identity.appId } });
    expect(reply.status).toBe(200);
    const line = await app.logs.waitFor((l) => /rate limiting/.test(String(l.msg)));
    expect(line).toMatchObject({ level: 40 });
    expect(String(line.msg)).toContain('T0LIMIT');
    expect(String(line.msg)).toContain('2018-02-12T20:37:00.000Z');
  });
});

function nowSec(): string {
  return String(Math.floor(Date.now() / 1000));
}
