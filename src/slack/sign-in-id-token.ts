// Checks the id_token of Sign in with Slack (sign-in-identity.ts) as OpenID Connect Core §3.1.3.7 asks: an RS256
// signature by a key of Slack's JWKS (node:crypto reads a JWK as is), Slack as the issuer, this app's client id as
// the audience, not expired, and the nonce the bot sent for this browser. Pure: the keys and the time are given.
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';

export type IdTokenErrorCode =
  /** Not three base64url parts of JSON, or not RS256. */
  | 'malformed'
  /** Signed by no RSA signing key the JWKS has (`kid` unknown: the caller may fetch the keys again once). */
  | 'unknown_key'
  | 'bad_signature'
  /** Issuer, audience or expiry is not what the bot expects, or no Slack user and workspace (as `sub`) are named. */
  | 'bad_claims'
  /** Another nonce than this browser's (sign-in-browser.ts). */
  | 'bad_nonce';

export class IdTokenError extends Error {
  override name = 'IdTokenError';
  constructor(
    readonly code: IdTokenErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The Slack person an id_token names. */
export interface SlackIdentityClaims {
  userId: string;
  teamId: string;
}

export interface IdTokenExpected {
  issuer: string;
  audience: string;
  nonce: string;
  /** Now, in seconds since the epoch (the bot's clock). */
  nowSec: number;
}

/** How far the bot's clock may be behind Slack's when checking `exp`, in seconds. */
const CLOCK_SKEW_SEC = 60;

interface Header {
  alg?: unknown;
  kid?: unknown;
}

function part(text: string | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(text ?? '', 'base64url').toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // Reported below as malformed, as any other shape is.
  }
  throw new IdTokenError('malformed', 'the id_token is not a JWT');
}

/** The `kid` an id_token's header names (absent when it names none), without checking anything. */
export function keyIdOf(token: string): string | undefined {
  const { kid } = part(token.split('.')[0]) as Header;
  return typeof kid === 'string' ? kid : undefined;
}

/** The person a valid id_token names; IdTokenError otherwise. `keys` is Slack's JWKS `keys`. */
export function verifyIdToken(
  token: string,
  keys: readonly JsonWebKey[],
  expected: IdTokenExpected,
): SlackIdentityClaims {
  const [head, body, signature, extra] = token.split('.');
  if (signature === undefined || extra !== undefined) throw new IdTokenError('malformed', 'not a JWS');
  const header = part(head) as Header;
  if (header.alg !== 'RS256') throw new IdTokenError('malformed', 'the id_token is not signed RS256');
  const jwk = keys.find((k) => isRs256Key(k) && (header.kid === undefined || k.kid === header.kid));
  if (jwk === undefined)
    throw new IdTokenError('unknown_key', 'the id_token names a key Slack does not list');
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${head}.${body}`), key, Buffer.from(signature, 'base64url')))
    throw new IdTokenError('bad_signature', 'the id_token signature does not verify');
  return claimsOf(part(body), expected);
}

/**
 * A key that can check an RS256 signature: node:crypto verifies with whatever key type it is given (ECDSA with an
 * EC key), so the header's RS256 holds only if the key is RSA. A JWKS key meant for another algorithm or for
 * encryption is no signer of id_tokens.
 */
const isRs256Key = (k: JsonWebKey): boolean =>
  k.kty === 'RSA' && (k.alg === undefined || k.alg === 'RS256') && (k.use === undefined || k.use === 'sig');

function claimsOf(claims: Record<string, unknown>, expected: IdTokenExpected): SlackIdentityClaims {
  const audience = Array.isArray(claims.aud) ? (claims.aud as unknown[]) : [claims.aud];
  const exp = typeof claims.exp === 'number' ? claims.exp : 0;
  const checks: [string, boolean][] = [
    ['issuer', claims.iss === expected.issuer],
    ['audience', audience.includes(expected.audience)],
    ['expiry', exp + CLOCK_SKEW_SEC >= expected.nowSec],
  ];
  const failed = checks.find(([, ok]) => !ok);
  if (failed) throw new IdTokenError('bad_claims', `the id_token's ${failed[0]} is not as expected`);
  if (claims.nonce !== expected.nonce) throw new IdTokenError('bad_nonce', "the id_token's nonce is another");
  const userId = claims['https://slack.com/user_id'];
  const teamId = claims['https://slack.com/team_id'];
  if (typeof userId !== 'string' || typeof teamId !== 'string')
    throw new IdTokenError('bad_claims', 'the id_token names no Slack user and workspace');
  // OpenID Connect's subject is the person; Slack's is their user id, so both must name the same one.
  if (claims.sub !== userId) throw new IdTokenError('bad_claims', "the id_token's sub is not its Slack user");
  return { userId, teamId };
}
