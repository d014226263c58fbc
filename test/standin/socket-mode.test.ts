// The stand-in's Socket Mode endpoint as Slack documents it: apps.connections.open takes only the app-level
// token and returns a single-use ws:// URL; the socket says hello, delivers envelopes and takes acks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, callApi } from './helpers.js';

const APP_TOKEN = 'xapp-1-A0STANDINAPP-standin';

function connect(url: string): Promise<{ ws: WebSocket; messages: Record<string, unknown>[] }> {
  const ws = new WebSocket(url);
  const messages: Record<string, unknown>[] = [];
  return new Promise((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      messages.push(message);
      if (message.type === 'hello') resolve({ ws, messages });
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

describe('Socket Mode endpoint', () => {
  let standin: SlackStandin;
  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  });
  afterAll(async () => {
    await standin.close();
  });

  it('opens connections only for the app-level token', async () => {
    expect((await callApi(standin, 'apps.connections.open', {}, { token: null })).body).toEqual({
      ok: false,
      error: 'not_authed',
    });
    expect((await callApi(standin, 'apps.connections.open')).body).toEqual({
      ok: false,
      error: 'not_allowed_token_type',
    });
    expect((await callApi(standin, 'apps.connections.open', {}, { token: 'xapp-other' })).body).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
    const opened = await callApi(standin, 'apps.connections.open', {}, { token: APP_TOKEN });
    expect(opened.body).toEqual({
      ok: true,
      url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=/) as unknown,
    });
  });

  it('refuses the app-level token with the error a test picks, as Slack does (HTTP 200), until told to take it again', async () => {
    const open = (): ReturnType<typeof callApi> =>
      callApi(standin, 'apps.connections.open', {}, { token: APP_TOKEN });
    try {
      standin.socketMode.refuseAppToken('token_revoked');
      const revoked = { status: 200, body: { ok: false, error: 'token_revoked' } };
      // A revoked token stays revoked: the second call is refused as the first was.
      expect(await open()).toMatchObject(revoked);
      expect(await open()).toMatchObject(revoked);
      standin.socketMode.refuseAppToken('missing_scope');
      expect(await open()).toMatchObject({
        status: 200,
        body: { ok: false, error: 'missing_scope', needed: 'connections:write' },
      });
    } finally {
      standin.socketMode.refuseAppToken(undefined);
    }
    expect((await open()).body).toMatchObject({ ok: true });
  });

  it('says hello, delivers an envelope and resolves with the ack payload; a URL works once', async () => {
    const { url } = (await callApi(standin, 'apps.connections.open', {}, { token: APP_TOKEN })).body as {
      url: string;
    };
    const { ws, messages } = await connect(url);
    expect(messages[0]).toMatchObject({ type: 'hello', connection_info: { app_id: standin.identity.appId } });
    ws.on('message', (data: Buffer) => {
      const envelope = JSON.parse(data.toString()) as { envelope_id: string; type: string };
      if (envelope.type === 'slash_commands') {
        ws.send(JSON.stringify({ envelope_id: envelope.envelope_id, payload: { text: 'ok' } }));
      }
    });
    const ack = standin.socketMode.deliver('slash_commands', { command: '/mcp', text: 'help' });
    expect(await ack).toEqual({ text: 'ok' });
    expect(messages[1]).toMatchObject({
      type: 'slash_commands',
      accepts_response_payload: true,
      payload: { command: '/mcp', text: 'help' },
    });
    await expect(connect(url)).rejects.toThrow('HTTP 401');
    standin.socketMode.disconnect('warning');
    await new Promise<void>((resolve) => ws.once('message', () => resolve()));
    expect(messages.at(-1)).toMatchObject({ type: 'disconnect', reason: 'warning' });
    ws.close();
  });
});
