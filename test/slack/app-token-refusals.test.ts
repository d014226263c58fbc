// The watch on apps.connections.open's answers that tells each refusal of the app-level token as Slack answers
// it, before the Socket Mode library reads the answer (the bot as a whole: socket-mode-start-up.test.ts and
// socket-mode-refused-while-running.test.ts). Only a refusal of the token is told, and the library still
// reads the answer itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppTokenWatch } from '../../src/slack/app-token-refusals.js';
import type { AppTokenRefusalCode } from '../../src/slack/app-token-refusals.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';

const APP_TOKEN = 'xapp-1-the-right-one';

describe('AppTokenWatch', () => {
  let standin: SlackStandin;
  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: 'xoxb-refusals', appToken: APP_TOKEN });
  });
  afterAll(async () => {
    standin.socketMode.refuseAppToken(undefined);
    await standin.close();
  });

  const open = (watch: AppTokenWatch): Promise<Response> =>
    watch.fetch(`${standin.apiUrl}apps.connections.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${APP_TOKEN}` },
    });

  it("tells a refusal's code and hands the answer on untouched", async () => {
    const told: AppTokenRefusalCode[] = [];
    const watch = new AppTokenWatch((code) => told.push(code));
    standin.socketMode.refuseAppToken('token_expired');
    const answer = await open(watch);
    standin.socketMode.refuseAppToken(undefined);
    expect(told).toEqual(['token_expired']);
    // The library still reads Slack's answer: the watch looked at a copy of its body.
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: false, error: 'token_expired' });
  });

  it('tells nothing of a passing failure nor of a connection opened', async () => {
    const told: AppTokenRefusalCode[] = [];
    const watch = new AppTokenWatch((code) => told.push(code));
    standin.failNext('apps.connections.open', 'internal_error');
    const first: unknown = await (await open(watch)).json();
    const second: unknown = await (await open(watch)).json();
    expect([first, second]).toEqual([
      { ok: false, error: 'internal_error' },
      { ok: true, url: expect.any(String) as unknown },
    ]);
    expect(told).toEqual([]);
  });
});
