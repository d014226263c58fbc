// Sign in with Slack as the bot checks it (src/slack/sign-in-identity.ts, sign-in-id-token.ts), against the Slack
// stand-in's OpenID endpoints: who signed in comes only from an id_token Slack signed (its JWKS), for this app,
// unexpired, with this browser's nonce; a code Slack refuses, or any other token, is a refusal, never a person.
import type { JsonWebKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdTokenError, verifyIdToken } from '../../src/slack/sign-in-id-token.js';
import { IdentityError, SlackIdentity } from '../../src/slack/sign-in-identity.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';

const APP = { clientId: '1111.2222', clientSecret: 'identity-unit-secret' };
const ADA = { teamId: 'T0STANDIN', userId: 'U0ADA' };
const REDIRECT = 'https://bot.example.com/oauth/mcp/slack-identity';
const NONCE = 'nonce-of-this-browser';

let standin: SlackStandin;
let now = Date.now();
const clock = { now: () => now };

beforeAll(async () => {
  standin = await startSlackStandin({ botToken: 'xoxb-identity-unit', oauth: APP });
});
afterAll(() => standin.close());

const identity = (secret = APP.clientSecret): SlackIdentity =>
  new SlackIdentity({ ...APP, clientSecret: secret, apiUrl: standin.apiUrl, fetch, clock });

/** Ada signs in on the stand-in's page: the code Slack sends back. */
function codeFor(nonce = NONCE): string {
  const url = identity().authorizeUrl({ state: 's', nonce, redirectUri: REDIRECT });
  return new URL(standin.openid.approve(url.href, ADA)).searchParams.get('code') ?? '';
}

/** A raw id_token from openid.connect.token, for the pure checks. */
async function idToken(): Promise<string> {
  const body = new URLSearchParams({
    client_id: APP.clientId,
    client_secret: APP.clientSecret,
    code: codeFor(),
    redirect_uri: REDIRECT,
  });
  const answer = (await (
    await fetch(`${standin.apiUrl}openid.connect.token`, { method: 'POST', body })
  ).json()) as {
    id_token: string;
  };
  return answer.id_token;
}

const keys = async (): Promise<JsonWebKey[]> =>
  ((await (await fetch(new URL('/openid/connect/keys', standin.apiUrl))).json()) as { keys: JsonWebKey[] })
    .keys;

const refusal = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof IdentityError ? error.code : error),
  );

describe('Sign in with Slack as the bot checks it', () => {
  it('names the person and workspace of a valid sign-in', async () => {
    await expect(identity().identify(codeFor(), REDIRECT, NONCE)).resolves.toEqual(ADA);
  });

  it('refuses a code Slack refuses: a wrong client secret, a code used twice, another redirect URI', async () => {
    await expect(refusal(identity('wrong').identify(codeFor(), REDIRECT, NONCE))).resolves.toBe(
      'identity_failed',
    );
    const code = codeFor();
    await identity().identify(code, REDIRECT, NONCE);
    await expect(refusal(identity().identify(code, REDIRECT, NONCE))).resolves.toBe('identity_failed');
    await expect(refusal(identity().identify(codeFor(), `${REDIRECT}x`, NONCE))).resolves.toBe(
      'identity_failed',
    );
  });

  it("refuses another browser's nonce as unbound, and an expired id_token", async () => {
    await expect(refusal(identity().identify(codeFor('another'), REDIRECT, NONCE))).resolves.toBe(
      'identity_unbound',
    );
    const code = codeFor();
    now += 10 * 60_000;
    try {
      await expect(refusal(identity().identify(code, REDIRECT, NONCE))).resolves.toBe('identity_failed');
    } finally {
      now = Date.now();
    }
  });

  it("refuses an id_token altered, for another app, from another issuer, or signed by a key Slack's JWKS lacks", async () => {
    const token = await idToken();
    const jwks = await keys();
    const expected = { issuer: new URL(standin.apiUrl).origin, audience: APP.clientId, nonce: NONCE };
    const nowSec = Math.floor(Date.now() / 1000);
    const codeOf = (run: () => unknown): string | undefined => {
      try {
        run();
        return undefined;
      } catch (error) {
        return error instanceof IdTokenError ? error.code : String(error);
      }
    };
    expect(verifyIdToken(token, jwks, { ...expected, nowSec })).toEqual(ADA);
    const [head, body, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(body ?? '', 'base64url').toString()) as Record<string, unknown>;
    const altered = Buffer.from(JSON.stringify({ ...claims, 'https://slack.com/user_id': 'U0EVE' })).toString(
      'base64url',
    );
    expect(
      codeOf(() => verifyIdToken(`${head}.${altered}.${signature}`, jwks, { ...expected, nowSec })),
    ).toBe('bad_signature');
    expect(codeOf(() => verifyIdToken(token, jwks, { ...expected, audience: 'other', nowSec }))).toBe(
      'bad_claims',
    );
    expect(codeOf(() => verifyIdToken(token, jwks, { ...expected, issuer: 'https://evil', nowSec }))).toBe(
      'bad_claims',
    );
    expect(codeOf(() => verifyIdToken(token, [], { ...expected, nowSec }))).toBe('unknown_key');
    expect(codeOf(() => verifyIdToken('not.a.jwt', jwks, { ...expected, nowSec }))).toBe('malformed');
  });
});
