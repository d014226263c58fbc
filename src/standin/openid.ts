// Sign in with Slack (OpenID Connect) as Slack documents it (https://api.slack.com/authentication/sign-in-with-slack):
// the authorize page `/openid/connect/authorize` (response_type=code, scope with `openid`, the app's client_id,
// its redirect_uri, state and nonce; the person signing in is played by `approve`, or by the page's form) sends the
// browser back with a single-use `code` (10 minutes) and the `state`; openid.connect.token exchanges it, with the
// app's client id and secret (form fields or HTTP Basic), for a user token and an `id_token` (a JWT signed RS256,
// its key at `/openid/connect/keys`, issuer the stand-in's origin as Slack's is https://slack.com);
// openid.connect.userInfo answers who the user token belongs to.
import { type KeyObject, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { Obj } from './blockkit-check.js';
import { StandinError } from './calls.js';
import { type ApiBody, fail, nonEmpty } from './methods-chat.js';
import { OAUTH_CODE_TTL_MS, type OAuthApp, type StandinWorkspace } from './oauth.js';
import type { StandinUser } from './store.js';

/** Who signs in at the authorize page. */
export interface SlackPerson {
  teamId: string;
  userId: string;
}

interface IdentityGrant extends SlackPerson {
  scopes: string[];
  nonce: string | undefined;
  redirectUri: string | undefined;
  issuedAt: number;
  used: boolean;
}

/** An id_token is valid for 5 minutes (exp − iat in Slack's documented example), in seconds. */
const ID_TOKEN_TTL_SEC = 300;
/** The one signing key's id, as the JWKS and each id_token's header name it. */
const KEY_ID = 'standin-1';

export interface OpenIdParts {
  app: OAuthApp;
  workspaces: Map<string, StandinWorkspace>;
  user: (userId: string) => StandinUser;
  /** The stand-in's origin (its issuer); known once it listens. */
  issuer: () => string;
  clock: () => number;
}

export class OpenIdEndpoint {
  private readonly codes = new Map<string, IdentityGrant>();
  private readonly userTokens = new Map<string, SlackPerson & { scopes: string[] }>();
  /** Made on first use: an RSA key costs tens of ms, and most tests never sign anyone in. */
  private signingKey: { privateKey: KeyObject; jwk: Obj } | undefined;

  constructor(private readonly parts: OpenIdParts) {}

  /**
   * The person signs in on Slack's authorize page (`authorizeUrl` is the app's link to it): returns the URL Slack
   * sends their browser back to, with `code` and `state`. Throws StandinError with Slack's error code otherwise.
   */
  approve(authorizeUrl: string, who: SlackPerson): string {
    const params = new URL(authorizeUrl).searchParams;
    const { app, workspaces, clock } = this.parts;
    if (params.get('client_id') !== app.clientId || app.clientId === '')
      throw openIdError('invalid_client_id');
    if (params.get('response_type') !== 'code') throw openIdError('invalid_response_type');
    const scopes = (params.get('scope') ?? '').split(/[ ,]+/).filter((s) => s !== '');
    if (!scopes.includes('openid')) throw openIdError('invalid_scope');
    if (!workspaces.has(who.teamId)) throw openIdError('invalid_team');
    const given = params.get('redirect_uri') ?? undefined;
    const target = given ?? app.redirectUrl;
    const allowed = [app.redirectUrl, ...(app.moreRedirectUrls ?? [])].filter((u) => u !== undefined);
    if (!target || (allowed.length > 0 && !allowed.some((url) => target.startsWith(url))))
      throw openIdError('bad_redirect_uri');
    const code = `${who.teamId}.${randomBytes(12).toString('hex')}`;
    const nonce = params.get('nonce') ?? undefined;
    this.codes.set(code, { ...who, scopes, nonce, redirectUri: given, issuedAt: clock(), used: false });
    const back = new URL(target);
    back.searchParams.set('code', code);
    const state = params.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return back.toString();
  }

  /** openid.connect.token: exchanges a code for a user token and the id_token naming the person. */
  token(args: Obj, authorization: string | undefined): ApiBody {
    const refused = this.clientRefusal(args, authorization);
    if (refused) return refused;
    const code = nonEmpty(args.code);
    const grant = code ? this.codes.get(code) : undefined;
    if (!grant || this.parts.clock() - grant.issuedAt > OAUTH_CODE_TTL_MS) return fail('invalid_code');
    if (grant.used) return fail('code_already_used');
    if (grant.redirectUri !== undefined && args.redirect_uri !== grant.redirectUri)
      return fail('bad_redirect_uri');
    grant.used = true;
    const accessToken = `xoxp-${grant.teamId}-${randomBytes(12).toString('hex')}`;
    this.userTokens.set(accessToken, grant);
    return { ok: true, access_token: accessToken, token_type: 'Bearer', id_token: this.idToken(grant) };
  }

  /** openid.connect.userInfo: who a user token from openid.connect.token belongs to. */
  userInfo(token: string | undefined): ApiBody {
    if (!token) return fail('not_authed');
    const who = this.userTokens.get(token);
    if (!who) return fail('invalid_auth');
    return { ok: true, ...this.claimsOf(who) };
  }

  /** `/openid/connect/keys`: the JWKS the id_tokens' signatures check against. */
  jwks(): Obj {
    return { keys: [this.key().jwk] };
  }

  /** `/.well-known/openid-configuration`, as Slack publishes it, at the stand-in's origin. */
  configuration(): Obj {
    const issuer = this.parts.issuer();
    return {
      issuer,
      authorization_endpoint: `${issuer}/openid/connect/authorize`,
      token_endpoint: `${issuer}/api/openid.connect.token`,
      userinfo_endpoint: `${issuer}/api/openid.connect.userInfo`,
      jwks_uri: `${issuer}/openid/connect/keys`,
      scopes_supported: ['openid', 'profile', 'email'],
      response_types_supported: ['code'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    };
  }

  /** The client's credentials (form fields or HTTP Basic) checked as Slack does; undefined when they pass. */
  private clientRefusal(args: Obj, authorization: string | undefined): ApiBody | undefined {
    const basic = authorization?.startsWith('Basic ')
      ? Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8').split(':')
      : [];
    const clientId = basic[0] ?? nonEmpty(args.client_id);
    const clientSecret = basic[1] ?? nonEmpty(args.client_secret);
    const { app } = this.parts;
    if (!clientId || clientId !== app.clientId) return fail('invalid_client_id');
    if (clientSecret !== app.clientSecret) return fail('bad_client_secret');
    return undefined;
  }

  private claimsOf(who: SlackPerson & { scopes: string[] }): Obj {
    const user = this.parts.user(who.userId);
    const profile = who.scopes.includes('profile')
      ? { name: user.realName ?? user.name, ...(user.locale ? { locale: user.locale } : {}) }
      : {};
    return {
      sub: who.userId,
      'https://slack.com/user_id': who.userId,
      'https://slack.com/team_id': who.teamId,
      ...profile,
    };
  }

  private idToken(grant: IdentityGrant): string {
    const iat = Math.floor(this.parts.clock() / 1000);
    const payload = {
      iss: this.parts.issuer(),
      aud: this.parts.app.clientId,
      iat,
      exp: iat + ID_TOKEN_TTL_SEC,
      auth_time: iat,
      ...(grant.nonce === undefined ? {} : { nonce: grant.nonce }),
      ...this.claimsOf(grant),
    };
    const encode = (part: object): string => Buffer.from(JSON.stringify(part)).toString('base64url');
    const signed = `${encode({ alg: 'RS256', typ: 'JWT', kid: KEY_ID })}.${encode(payload)}`;
    const signature = sign('sha256', Buffer.from(signed), this.key().privateKey).toString('base64url');
    return `${signed}.${signature}`;
  }

  private key(): { privateKey: KeyObject; jwk: Obj } {
    if (!this.signingKey) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const jwk = { ...publicKey.export({ format: 'jwk' }), kid: KEY_ID, alg: 'RS256', use: 'sig' };
      this.signingKey = { privateKey, jwk };
    }
    return this.signingKey;
  }
}

function openIdError(code: string): StandinError {
  return new StandinError(code, `Slack's sign-in page would refuse this: ${code}`);
}
