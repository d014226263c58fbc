// The id_token check of Sign in with Slack (src/slack/sign-in-id-token.ts) against forged tokens, with keys this
// test makes: Slack's JWKS as the bot fetched it, and tokens signed as an attacker would try. `alg` confusion
// (`none`, HS256 keyed with the RSA public key, ES256 under a header that says RS256 with a `kid` naming an EC key),
// a `kid` naming a key that cannot sign RS256, a `sub` that is not the Slack user the token names, and the
// claims the bot relies on. Each is refused with IdTokenError, never a person and never another error (a crash
// would be a 500 page instead of the refusal).
import { createHmac, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdTokenError, verifyIdToken } from '../../src/slack/sign-in-id-token.js';

const ISSUER = 'https://slack.com';
const APP = '1111.2222';
const NONCE = 'nonce-of-this-browser';
const NOW_SEC = 1_800_000_000;
const expected = { issuer: ISSUER, audience: APP, nonce: NONCE, nowSec: NOW_SEC };

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwkOf = (key: KeyObject, kid: string, extra: JsonWebKey = {}): JsonWebKey => ({
  ...key.export({ format: 'jwk' }),
  kid,
  ...extra,
});
/** Slack's JWKS as fetched: its RSA signing key, and (for the attacks) an EC key and a symmetric one. */
const SLACK_KEYS = [
  jwkOf(rsa.publicKey, 'rsa-1', { alg: 'RS256', use: 'sig' }),
  jwkOf(ec.publicKey, 'ec-1'),
  { kty: 'oct', kid: 'oct-1', k: Buffer.from('a shared secret').toString('base64url') },
];

const b64 = (part: object): string => Buffer.from(JSON.stringify(part)).toString('base64url');

const claims = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  iss: ISSUER,
  aud: APP,
  iat: NOW_SEC,
  exp: NOW_SEC + 300,
  nonce: NONCE,
  sub: 'U0ADA',
  'https://slack.com/user_id': 'U0ADA',
  'https://slack.com/team_id': 'T0ADA',
  ...extra,
});

/** A token signed by `signer` over header and claims as given. */
function token(header: object, body: object, signer: (data: Buffer) => Buffer): string {
  const signed = `${b64(header)}.${b64(body)}`;
  return `${signed}.${signer(Buffer.from(signed)).toString('base64url')}`;
}
const rs256 = (data: Buffer): Buffer => sign('sha256', data, rsa.privateKey);

/** The refusal's code; `accepted` when the token passed, the error itself when it was not an IdTokenError. */
function outcome(jwt: string, keys: readonly JsonWebKey[] = SLACK_KEYS): unknown {
  try {
    verifyIdToken(jwt, keys, expected);
    return 'accepted';
  } catch (error) {
    return error instanceof IdTokenError ? error.code : error;
  }
}

describe('forged id_tokens are refused', () => {
  it('accepts the genuine token (the baseline the attacks alter)', () => {
    expect(
      verifyIdToken(token({ alg: 'RS256', kid: 'rsa-1' }, claims(), rs256), SLACK_KEYS, expected),
    ).toEqual({
      userId: 'U0ADA',
      teamId: 'T0ADA',
    });
  });

  it('refuses alg none and HS256 keyed with the RSA public key', () => {
    const unsigned = `${b64({ alg: 'none' })}.${b64(claims())}.`;
    expect(outcome(unsigned)).toBe('malformed');
    const pem = rsa.publicKey.export({ format: 'pem', type: 'spki' });
    const hs256 = (data: Buffer): Buffer => createHmac('sha256', pem).update(data).digest();
    expect(outcome(token({ alg: 'HS256', kid: 'rsa-1' }, claims(), hs256))).toBe('malformed');
  });

  it('refuses an ES256 signature under a header saying RS256 whose kid names an EC key of the JWKS', () => {
    const es256 = (data: Buffer): Buffer => sign('sha256', data, ec.privateKey);
    expect(outcome(token({ alg: 'RS256', kid: 'ec-1' }, claims(), es256))).toBe('unknown_key');
  });

  it('refuses a kid naming a symmetric key of the JWKS as an unknown key, not a crash', () => {
    expect(outcome(token({ alg: 'RS256', kid: 'oct-1' }, claims(), rs256))).toBe('unknown_key');
  });

  it('refuses a sub that is not the Slack user id the token names', () => {
    expect(outcome(token({ alg: 'RS256', kid: 'rsa-1' }, claims({ sub: 'U0EVE' }), rs256))).toBe(
      'bad_claims',
    );
    const noSub = claims();
    delete noSub.sub;
    expect(outcome(token({ alg: 'RS256', kid: 'rsa-1' }, noSub, rs256))).toBe('bad_claims');
  });

  it('refuses another audience, another issuer, an expiry past the 60 s leeway, and no Slack workspace', () => {
    const signed = (extra: Record<string, unknown>): unknown =>
      outcome(token({ alg: 'RS256', kid: 'rsa-1' }, claims(extra), rs256));
    expect(signed({ aud: 'another-app' })).toBe('bad_claims');
    expect(signed({ aud: ['another-app'] })).toBe('bad_claims');
    expect(signed({ iss: 'https://slack.com.evil.example' })).toBe('bad_claims');
    expect(signed({ exp: NOW_SEC - 61 })).toBe('bad_claims');
    expect(signed({ exp: NOW_SEC - 59 })).toBe('accepted');
    expect(signed({ exp: String(NOW_SEC + 300) })).toBe('bad_claims');
    expect(signed({ 'https://slack.com/team_id': undefined })).toBe('bad_claims');
  });
});
