// Signed requests whose body is not the object Slack sends (issue 15 item 1): each is refused at once with 400
// and the process stays up. Before the fix a `null` payload killed the bot inside Bolt's HTTP receiver.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCli, waitUntilReady, type CliRun } from './child.js';
import { fixtureCommand } from '../setup/compiled.js';
import { SIGNING_SECRET } from './harness.js';
import { botEnv, processSetting } from './process-setting.js';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** Bodies a forger holding the signing secret could send; none is the object Slack sends. */
const MALFORMED: { contentType: string; body: string }[] = [
  { contentType: FORM, body: 'payload=null' },
  { contentType: FORM, body: 'payload=true' },
  { contentType: FORM, body: 'payload=%5B1%2C2%5D' },
  { contentType: FORM, body: 'payload=%7B%7D' },
  { contentType: FORM, body: 'payload=not-json' },
  { contentType: FORM, body: 'text=hello' },
  { contentType: JSON_TYPE, body: 'null' },
  { contentType: JSON_TYPE, body: 'true' },
  { contentType: JSON_TYPE, body: '[1,2]' },
  { contentType: JSON_TYPE, body: '{}' },
  { contentType: JSON_TYPE, body: '{"type":' },
];

function signedPost(port: number, contentType: string, body: string): Promise<Response> {
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;
  return fetch(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-slack-request-timestamp': ts, 'x-slack-signature': signature },
    body,
  });
}

describe('signed requests with a body Slack never sends', () => {
  const setting = processSetting('bodies');
  let run: CliRun;
  let port: number;
  beforeAll(async () => {
    const file = setting.serversFile('ok.json', { fixture: fixtureCommand() });
    port = await freePort();
    run = runCli(botEnv(setting.standin, { PORT: String(port), ELICIT_RELAY_CONFIG: file }), [], 'compiled');
    await waitUntilReady(run);
  });
  // Registered after the setting's: run first (hooks stack), the bot stopped before the stand-in closes.
  afterAll(async () => {
    run.child.kill('SIGTERM');
    await run.done;
  });

  it.each(MALFORMED)(
    'answers 400 to $contentType body $body and stays alive',
    async ({ contentType, body }) => {
      expect((await signedPost(port, contentType, body)).status).toBe(400);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(run.child.exitCode).toBeNull();
    },
  );

  it('still serves Slack ssl_check requests', async () => {
    expect((await signedPost(port, FORM, 'ssl_check=1&token=x')).status).toBe(200);
  });
});
