// The stand-in's token rotation (src/standin/oauth.ts) answers as Slack documents it: with rotation on, an install
// gets an `xoxe.xoxb-` token that expires after 43,200 s (calls then fail `token_expired`) and a refresh token
// that oauth.v2.access `grant_type=refresh_token` exchanges once (again: `invalid_refresh_token`); a refresh leaves
// the token before working, and past two live tokens the oldest is revoked. Without rotation nothing expires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROTATED_TOKEN_TTL_SEC,
  startSlackStandin,
  type OAuthApp,
  type SlackStandin,
} from '../../src/standin/index.js';

const APP: OAuthApp = {
  clientId: '1111.2222',
  clientSecret: 'standin-rotation-secret',
  redirectUrl: 'https://bot.example.com/slack/oauth_redirect',
  tokenRotation: true,
};
const TEAM = 'T0ROTATE';
const TTL_MS = ROTATED_TOKEN_TTL_SEC * 1000;

let now = 1_000_000;
const started: SlackStandin[] = [];
afterAll(() => Promise.all(started.map((s) => s.close())));

async function standinFor(app: OAuthApp): Promise<SlackStandin> {
  const standin = await startSlackStandin({
    botToken: 'xoxb-own',
    oauth: app,
    workspaces: [{ teamId: TEAM }],
    clock: () => now,
  });
  started.push(standin);
  return standin;
}

async function call(standin: SlackStandin, method: string, form: Record<string, string>) {
  const response = await fetch(`${standin.apiUrl}${method}`, {
    method: 'POST',
    body: new URLSearchParams(form),
  });
  return (await response.json()) as Record<string, unknown>;
}

const credentials = { client_id: APP.clientId, client_secret: APP.clientSecret };

/** Installs the app in TEAM: the authorize page's code exchanged by oauth.v2.access. */
async function install(standin: SlackStandin): Promise<Record<string, unknown>> {
  const authorize = `https://slack.example/oauth/v2/authorize?client_id=${APP.clientId}&scope=chat:write`;
  const back = standin.oauth.approve(authorize, { teamId: TEAM, userId: 'UADMIN' });
  const code = new URL(back).searchParams.get('code') ?? '';
  return call(standin, 'oauth.v2.access', { ...credentials, code });
}

const refresh = (standin: SlackStandin, refreshToken: unknown) =>
  call(standin, 'oauth.v2.access', {
    ...credentials,
    grant_type: 'refresh_token',
    refresh_token: String(refreshToken),
  });

const authTest = (standin: SlackStandin, token: unknown) =>
  call(standin, 'auth.test', { token: String(token) });

describe('the stand-in with token rotation', () => {
  let standin: SlackStandin;
  beforeAll(async () => {
    standin = await standinFor(APP);
  });

  it('issues an expiring bot token with a refresh token, and refuses it token_expired after 12 hours', async () => {
    const installed = await install(standin);
    expect(installed).toMatchObject({ ok: true, token_type: 'bot', expires_in: 43_200 });
    expect(String(installed.access_token)).toMatch(/^xoxe\.xoxb-/);
    expect(String(installed.refresh_token)).toMatch(/^xoxe-1-/);
    expect(await authTest(standin, installed.access_token)).toMatchObject({ ok: true, team_id: TEAM });
    now += TTL_MS;
    expect(await authTest(standin, installed.access_token)).toEqual({ ok: false, error: 'token_expired' });
  });

  it('exchanges a refresh token once for a new pair; the spent one is refused invalid_refresh_token', async () => {
    const installed = await install(standin);
    const refreshed = await refresh(standin, installed.refresh_token);
    expect(refreshed).toMatchObject({ ok: true, token_type: 'bot', expires_in: 43_200 });
    expect(refreshed.access_token).not.toBe(installed.access_token);
    expect(refreshed.refresh_token).not.toBe(installed.refresh_token);
    expect(await authTest(standin, refreshed.access_token)).toMatchObject({ ok: true, team_id: TEAM });
    // Refreshing does not end the token before it (Slack's docs).
    expect(await authTest(standin, installed.access_token)).toMatchObject({ ok: true });
    expect(await refresh(standin, installed.refresh_token)).toEqual({
      ok: false,
      error: 'invalid_refresh_token',
    });
    expect(await refresh(standin, 'xoxe-1-unknown')).toEqual({ ok: false, error: 'invalid_refresh_token' });
  });

  it('refuses a refresh without the app client secret', async () => {
    const installed = await install(standin);
    const answer = await call(standin, 'oauth.v2.access', {
      client_id: APP.clientId,
      client_secret: 'wrong',
      grant_type: 'refresh_token',
      refresh_token: String(installed.refresh_token),
    });
    expect(answer).toEqual({ ok: false, error: 'bad_client_secret' });
  });

  it('keeps at most two live tokens of a workspace: a third refresh revokes the oldest', async () => {
    const first = await install(standin);
    const second = await refresh(standin, first.refresh_token);
    const third = await refresh(standin, second.refresh_token);
    expect(await authTest(standin, first.access_token)).toEqual({ ok: false, error: 'invalid_auth' });
    expect(await authTest(standin, second.access_token)).toMatchObject({ ok: true });
    expect(await authTest(standin, third.access_token)).toMatchObject({ ok: true });
  });
});

describe('the stand-in without token rotation', () => {
  it('issues a bot token that never expires and no refresh token', async () => {
    const standin = await standinFor({ ...APP, tokenRotation: false });
    const installed = await install(standin);
    expect(String(installed.access_token)).toMatch(/^xoxb-/);
    expect(installed).not.toHaveProperty('refresh_token');
    expect(installed).not.toHaveProperty('expires_in');
    now += 10 * TTL_MS;
    expect(await authTest(standin, installed.access_token)).toMatchObject({ ok: true });
  });
});
