// OAuth v2 installs as Slack documents them: the authorize page (the person picks a workspace and clicks
// Allow; played here by `approve`) sends the browser back to the app's redirect URL with a single-use `code`
// (10 minutes) and the app's `state`; oauth.v2.access exchanges the code, with the app's client id and secret
// (form fields or HTTP Basic), for a bot token of that workspace.
import { randomBytes } from 'node:crypto';
import type { Obj } from './blockkit-check.js';
import { StandinError } from './calls.js';
import { type ApiBody, fail, nonEmpty } from './methods-chat.js';
import type { Identity } from './store.js';

export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  /** The app's Redirect URL (its manifest's `oauth_config.redirect_urls`); a `redirect_uri` must start with it. */
  redirectUrl?: string;
  /** The app's other Redirect URLs (Sign in with Slack's, openid.ts); a `redirect_uri` may start with one. */
  moreRedirectUrls?: string[];
}

/** A workspace the app can be installed in. */
export interface StandinWorkspace {
  teamId: string;
  /** Subdomain; default the team id in lower case. */
  teamDomain?: string;
  name?: string;
}

interface Grant {
  teamId: string;
  userId: string;
  scopes: string;
  redirectUri: string | undefined;
  issuedAt: number;
  used: boolean;
}

/** An authorization code is valid for 10 minutes (Slack's OAuth docs). */
export const OAUTH_CODE_TTL_MS = 10 * 60_000;

export class OAuthEndpoint {
  private readonly codes = new Map<string, Grant>();
  /** Bot tokens minted by installs, and whose they are. */
  readonly installed = new Map<string, Identity>();

  private readonly app: OAuthApp;

  constructor(
    app: OAuthApp,
    private readonly workspaces: Map<string, StandinWorkspace>,
    private readonly appId: string,
    private readonly clock: () => number,
  ) {
    this.app = { ...app };
  }

  /** Sets the app's Redirect URL, as its configuration would (a test knows it once the bot listens). */
  setRedirectUrl(url: string): void {
    this.app.redirectUrl = url;
  }

  /**
   * The person allows the install on Slack's authorize page (`authorizeUrl` is the app's link to it): returns
   * the URL Slack sends their browser back to, with `code` and `state`.
   */
  approve(authorizeUrl: string, who: { teamId: string; userId: string }): string {
    const params = new URL(authorizeUrl).searchParams;
    if (params.get('client_id') !== this.app.clientId) throw oauthError('invalid_client_id');
    const scopes = params.get('scope') ?? '';
    if (scopes === '') throw oauthError('invalid_scope');
    if (!this.workspaces.has(who.teamId)) throw oauthError('invalid_team');
    const given = params.get('redirect_uri') ?? undefined;
    const target = given ?? this.app.redirectUrl;
    if (!target || (this.app.redirectUrl && !target.startsWith(this.app.redirectUrl))) {
      throw oauthError('bad_redirect_uri');
    }
    const code = `${who.teamId}.${randomBytes(12).toString('hex')}`;
    this.codes.set(code, { ...who, scopes, redirectUri: given, issuedAt: this.clock(), used: false });
    const back = new URL(target);
    back.searchParams.set('code', code);
    const state = params.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return back.toString();
  }

  /** oauth.v2.access: exchanges a code for the workspace's bot token. */
  access(args: Obj, authorization: string | undefined): ApiBody {
    const basic = authorization?.startsWith('Basic ')
      ? Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8').split(':')
      : [];
    const clientId = basic[0] ?? nonEmpty(args.client_id);
    const clientSecret = basic[1] ?? nonEmpty(args.client_secret);
    if (!clientId) return fail('invalid_client_id');
    if (clientId !== this.app.clientId) return fail('invalid_client_id');
    if (clientSecret !== this.app.clientSecret) return fail('bad_client_secret');
    const code = nonEmpty(args.code);
    const grant = code ? this.codes.get(code) : undefined;
    if (!grant) return fail('invalid_code');
    if (grant.used) return fail('code_already_used');
    if (this.clock() - grant.issuedAt > OAUTH_CODE_TTL_MS) return fail('invalid_code');
    if (grant.redirectUri !== undefined && args.redirect_uri !== grant.redirectUri)
      return fail('bad_redirect_uri');
    grant.used = true;
    const bot = this.mint(grant.teamId, grant.scopes.split(','));
    const workspace = this.workspaces.get(grant.teamId);
    return {
      ok: true,
      access_token: bot.botToken,
      token_type: 'bot',
      scope: grant.scopes,
      bot_user_id: bot.botUserId,
      app_id: this.appId,
      team: { name: workspace?.name ?? grant.teamId, id: grant.teamId },
      enterprise: null,
      authed_user: { id: grant.userId },
      is_enterprise_install: false,
    };
  }

  private mint(teamId: string, scopes: readonly string[]): Identity {
    const workspace = this.workspaces.get(teamId);
    const identity: Identity = {
      teamId,
      teamDomain: workspace?.teamDomain ?? teamId.toLowerCase(),
      botUserId: `U0BOT${teamId}`,
      botId: `B0BOT${teamId}`,
      appId: this.appId,
      botToken: `xoxb-${teamId}-${randomBytes(12).toString('hex')}`,
      scopes,
    };
    this.installed.set(identity.botToken, identity);
    return identity;
  }
}

function oauthError(code: string): StandinError {
  return new StandinError(code, `Slack's authorize page would refuse this install: ${code}`);
}
