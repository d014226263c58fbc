// The stand-in's Sign in with Slack (src/standin/openid.ts, openid-pages.ts) answers as Slack documents it: the
// authorize page's refusals, openid.connect.token's client authentication (form fields or HTTP Basic) and its
// error codes, openid.connect.userInfo, the JWKS and OpenID configuration, and the page a browser signs in on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StandinError, startSlackStandin, type SlackStandin } from '../../src/standin/index.js';

const APP = {
  clientId: '1111.2222',
  clientSecret: 'standin-openid-secret',
  redirectUrl: 'https://bot.example.com/slack/oauth_redirect',
  moreRedirectUrls: ['https://bot.example.com/oauth/mcp/slack-identity'],
};
const REDIRECT = 'https://bot.example.com/oauth/mcp/slack-identity';
const ADA = { teamId: 'T0STANDIN', userId: 'U0ADA' };

let standin: SlackStandin;
beforeAll(async () => {
  standin = await startSlackStandin({
    botToken: 'xoxb-openid',
    oauth: APP,
    users: { [ADA.userId]: { name: 'ada', realName: 'Ada Lovelace', locale: 'en-GB' } },
  });
});
afterAll(() => standin.close());

const authorize = (params: Record<string, string> = {}): string => {
  const url = new URL('/openid/connect/authorize', new URL(standin.apiUrl).origin);
  const all = {
    response_type: 'code',
    scope: 'openid profile',
    client_id: APP.clientId,
    redirect_uri: REDIRECT,
    state: 'st',
    nonce: 'nn',
    ...params,
  };
  for (const [key, value] of Object.entries(all)) url.searchParams.set(key, value);
  return url.href;
};

const refusedWith = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof StandinError ? error.code : String(error);
  }
};

async function token(form: Record<string, string>, basic?: string): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = basic ? { authorization: `Basic ${basic}` } : {};
  const body = new URLSearchParams(form);
  const response = await fetch(`${standin.apiUrl}openid.connect.token`, { method: 'POST', headers, body });
  return (await response.json()) as Record<string, unknown>;
}

const codeOf = (back: string): string => new URL(back).searchParams.get('code') ?? '';

describe('the stand-in as Sign in with Slack', () => {
  it('refuses an authorize request with another client, without openid, or to a redirect URL the app lacks', () => {
    expect(refusedWith(() => standin.openid.approve(authorize({ client_id: 'x' }), ADA))).toBe(
      'invalid_client_id',
    );
    expect(refusedWith(() => standin.openid.approve(authorize({ scope: 'profile' }), ADA))).toBe(
      'invalid_scope',
    );
    expect(
      refusedWith(() => standin.openid.approve(authorize({ redirect_uri: 'https://evil.example/x' }), ADA)),
    ).toBe('bad_redirect_uri');
    const back = new URL(standin.openid.approve(authorize(), ADA));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st');
  });

  it('exchanges a code once, with the client id and secret as form fields or HTTP Basic, else says why', async () => {
    const form = { client_id: APP.clientId, client_secret: APP.clientSecret, redirect_uri: REDIRECT };
    expect(
      await token({ ...form, client_id: 'x', code: codeOf(standin.openid.approve(authorize(), ADA)) }),
    ).toEqual({
      ok: false,
      error: 'invalid_client_id',
    });
    const code = codeOf(standin.openid.approve(authorize(), ADA));
    expect(await token({ ...form, client_secret: 'wrong', code })).toEqual({
      ok: false,
      error: 'bad_client_secret',
    });
    expect(await token({ ...form, code: 'T0STANDIN.unknown' })).toEqual({ ok: false, error: 'invalid_code' });
    const basic = Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64');
    const ok = await token({ code, redirect_uri: REDIRECT }, basic);
    expect(ok).toMatchObject({ ok: true, token_type: 'Bearer' });
    expect(typeof ok.id_token).toBe('string');
    expect(await token({ ...form, code })).toEqual({ ok: false, error: 'code_already_used' });

    const info = await fetch(`${standin.apiUrl}openid.connect.userInfo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${String(ok.access_token)}` },
    });
    expect(await info.json()).toEqual({
      ok: true,
      sub: ADA.userId,
      'https://slack.com/user_id': ADA.userId,
      'https://slack.com/team_id': ADA.teamId,
      name: 'Ada Lovelace',
      locale: 'en-GB',
    });
    const stranger = await fetch(`${standin.apiUrl}openid.connect.userInfo`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxp-unknown' },
    });
    expect(await stranger.json()).toEqual({ ok: false, error: 'invalid_auth' });
  });

  it('publishes its configuration and keys at its origin, and signs a browser in from its page', async () => {
    const origin = new URL(standin.apiUrl).origin;
    const configuration = (await (
      await fetch(`${origin}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    expect(configuration).toMatchObject({ issuer: origin, jwks_uri: `${origin}/openid/connect/keys` });
    const keys = (await (await fetch(`${origin}/openid/connect/keys`)).json()) as {
      keys: Record<string, unknown>[];
    };
    expect(keys.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256' })]);

    const page = await (await fetch(authorize())).text();
    const hidden = /name="authorize" value="([^"]*)"/.exec(page)?.[1] ?? '';
    const search = hidden.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
    const body = new URLSearchParams({ authorize: search, user: ADA.userId, team: ADA.teamId });
    const signedIn = await fetch(`${origin}/openid/connect/authorize`, {
      method: 'POST',
      body,
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(302);
    const back = new URL(signedIn.headers.get('location') ?? '');
    expect(back.searchParams.get('state')).toBe('st');
    expect(
      await token({
        client_id: APP.clientId,
        client_secret: APP.clientSecret,
        code: codeOf(back.href),
        redirect_uri: REDIRECT,
      }),
    ).toMatchObject({ ok: true });
  });
});
