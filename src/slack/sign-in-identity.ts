// Sign in with Slack (OpenID Connect, https://api.slack.com/authentication/sign-in-with-slack), the bot's client of
// it: who opened a Connect link, so that a link forwarded to someone else is refused before they sign in at the MCP
// server's authorization server (sign-in-start.ts, sign-in-identity-page.ts). Slack's authorize page, JWKS and
// issuer are at the origin of SLACK_API_URL (https://slack.com), its methods under it; the app's client id and
// secret (SLACK_CLIENT_ID / SLACK_CLIENT_SECRET) authenticate the code exchange.
import type { JsonWebKey } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { BrowserBinding } from './sign-in-browser.js';
import { IdTokenError, keyIdOf, verifyIdToken, type SlackIdentityClaims } from './sign-in-id-token.js';

export type IdentityErrorCode =
  /** The Slack sign-in came back to a browser that did not start it (no or another browser cookie). */
  | 'identity_unbound'
  /** The person cancelled at Slack's page (`error` on the callback). */
  | 'identity_denied'
  /** Slack refused the code, or its id_token did not check out. */
  | 'identity_failed'
  /** The person who signed in with Slack is not the link's owner. */
  | 'identity_mismatch'
  /** The MCP sign-in's callback reached a browser that never confirmed its identity for that link. */
  | 'identity_unverified';

export class IdentityError extends Error {
  override name = 'IdentityError';
  /** identity_mismatch: the link's owner and who signed in with Slack. */
  readonly mismatch: { owner: SlackIdentityClaims; you: SlackIdentityClaims } | undefined;
  constructor(
    readonly code: IdentityErrorCode,
    message: string,
    options?: { cause?: unknown; mismatch?: { owner: SlackIdentityClaims; you: SlackIdentityClaims } },
  ) {
    super(message, options);
    this.mismatch = options?.mismatch;
  }
}

/** The check a deployment with the app's client credentials makes: who, in which browser (sign-in-browser.ts). */
export interface IdentityCheck {
  slack: SlackIdentity;
  browsers: BrowserBinding;
  /** The bot token's workspace: the team of a link's owner named without one (a one-workspace deployment). */
  homeTeam: () => Promise<string>;
}

export interface SlackIdentityDeps {
  clientId: string;
  clientSecret: string;
  /** SLACK_API_URL, ending in "/" (https://slack.com/api/). */
  apiUrl: string;
  fetch: typeof fetch;
  clock: Pick<Clock, 'now'>;
}

/** How long one call to Slack (the code exchange, the keys) may take, in ms. */
const SLACK_CALL_MS = 10_000;

export class SlackIdentity {
  /** Slack's issuer (https://slack.com), the origin of its API URL. */
  readonly issuer: string;
  private keys: JsonWebKey[] = [];

  constructor(private readonly deps: SlackIdentityDeps) {
    this.issuer = new URL(deps.apiUrl).origin;
  }

  /** Slack's authorize page for one sign-in: the `openid` scope only (the user and workspace ids are enough). */
  authorizeUrl(request: { state: string; nonce: string; redirectUri: string }): URL {
    const url = new URL('/openid/connect/authorize', this.issuer);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', 'openid');
    url.searchParams.set('client_id', this.deps.clientId);
    url.searchParams.set('state', request.state);
    url.searchParams.set('nonce', request.nonce);
    url.searchParams.set('redirect_uri', request.redirectUri);
    return url;
  }

  /** Who signed in: exchanges the code (openid.connect.token) and checks its id_token. IdentityError otherwise. */
  async identify(code: string, redirectUri: string, nonce: string): Promise<SlackIdentityClaims> {
    const token = await this.exchange(code, redirectUri);
    const expected = {
      issuer: this.issuer,
      audience: this.deps.clientId,
      nonce,
      nowSec: Math.floor(this.deps.clock.now() / 1000),
    };
    try {
      // Slack rotates its keys: a key id not seen yet is looked up again, once.
      const kid = keyIdOf(token);
      if (this.keys.length === 0 || (kid !== undefined && !this.keys.some((k) => k.kid === kid)))
        this.keys = await this.fetchKeys();
      return verifyIdToken(token, this.keys, expected);
    } catch (cause) {
      if (!(cause instanceof IdTokenError)) throw cause;
      // The id_token is Slack's, but for another browser's nonce: a Slack callback opened elsewhere.
      if (cause.code === 'bad_nonce')
        throw new IdentityError('identity_unbound', 'the Slack sign-in was started in another browser', {
          cause,
        });
      throw new IdentityError('identity_failed', `Slack's id_token was refused: ${cause.message}`, { cause });
    }
  }

  private async exchange(code: string, redirectUri: string): Promise<string> {
    const body = new URLSearchParams({
      client_id: this.deps.clientId,
      client_secret: this.deps.clientSecret,
      code,
      redirect_uri: redirectUri,
      grant_type: 'authorization_code',
    });
    const answer = await this.call(new URL('openid.connect.token', this.deps.apiUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    if (answer.ok !== true || typeof answer.id_token !== 'string') {
      const error = typeof answer.error === 'string' ? answer.error : 'no id_token';
      throw new IdentityError('identity_failed', `openid.connect.token refused the code: ${error}`);
    }
    return answer.id_token;
  }

  private async fetchKeys(): Promise<JsonWebKey[]> {
    const answer = await this.call(new URL('/openid/connect/keys', this.issuer), { method: 'GET' });
    return Array.isArray(answer.keys) ? (answer.keys as JsonWebKey[]) : [];
  }

  /** One JSON call to Slack; a failure to reach it, or a body that is not JSON, is `identity_failed`. */
  private async call(url: URL, init: RequestInit): Promise<Record<string, unknown>> {
    try {
      const response = await this.deps.fetch(url, { ...init, signal: AbortSignal.timeout(SLACK_CALL_MS) });
      const json: unknown = await response.json();
      return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
    } catch (cause) {
      throw new IdentityError('identity_failed', `Slack could not be asked (${url.pathname})`, { cause });
    }
  }
}
