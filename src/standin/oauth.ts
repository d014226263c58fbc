// OAuth v2 installs as Slack documents them: the authorize page (the person picks a workspace and clicks
// Allow; played here by `approve`) sends the browser back to the app's redirect URL with a single-use `code`
// (10 minutes) and the app's `state`; oauth.v2.access exchanges the code, with the app's client id and secret
// (form fields or HTTP Basic), for a bot token of that workspace.
//
// Token rotation (https://docs.slack.dev/authentication/using-token-rotation), when the app has it on: the bot
// token (`xoxe.xoxb-…`) expires 43,200 s after it was issued (calls with it then fail `token_expired`) and comes
// with a refresh token (`xoxe-1-…`), which oauth.v2.access with `grant_type=refresh_token` exchanges for a new
// pair. A refresh token is used once: Slack revokes it "after a short grace period", the stand-in at once
// (`invalid_refresh_token`), so a second refresh of one token shows. Refreshing does not end the token before;
// past two live tokens of a workspace the oldest is revoked (Slack's "2 active token limit").
//
// An org-wide install (Enterprise Grid, https://docs.slack.dev/enterprise): an Org Admin approves for the whole
// org (`approve` with `enterpriseId`); oauth.v2.access answers `is_enterprise_install: true`, the `enterprise`
// and `team: null`, and the one bot token is the org's (its calls are recorded with the org's id as `teamId`,
// and rate limited as the org's). Workspaces name their org with `enterpriseId`.
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
  /** The manifest's `settings.token_rotation_enabled`: installs get expiring bot tokens. Default false. */
  tokenRotation?: boolean;
}

/** A workspace the app can be installed in. */
export interface StandinWorkspace {
  teamId: string;
  /** Subdomain; default the team id in lower case. */
  teamDomain?: string;
  name?: string;
  /** The Enterprise Grid org (E…) the workspace belongs to; an org-wide install serves it. */
  enterpriseId?: string;
}

/** Who approves an install: a workspace's admin (`teamId`), or an org's (`enterpriseId`: org-wide). */
export type Installer = { userId: string } & ({ teamId: string } | { enterpriseId: string });

/** Where an install goes: a workspace, or (org) an Enterprise Grid org as a whole. */
interface Target {
  id: string;
  org: boolean;
}

interface Grant extends Target {
  userId: string;
  scopes: string;
  redirectUri: string | undefined;
  issuedAt: number;
  used: boolean;
}

/** An authorization code is valid for 10 minutes (Slack's OAuth docs). */
export const OAUTH_CODE_TTL_MS = 10 * 60_000;

/** With token rotation, a bot token expires this many seconds after it was issued (12 h, Slack's docs). */
export const ROTATED_TOKEN_TTL_SEC = 43_200;

/** A workspace keeps at most this many live rotated tokens; a refresh past it revokes the oldest. */
const LIVE_TOKENS_MAX = 2;

/** A refresh token: whose, and whether it was used. */
interface Refresh extends Target {
  scopes: string[];
  spent: boolean;
}

export class OAuthEndpoint {
  private readonly codes = new Map<string, Grant>();
  /** Bot tokens minted by installs, and whose they are. */
  readonly installed = new Map<string, Identity>();
  /** Rotated bot tokens: when each expires, epoch ms. */
  private readonly expiries = new Map<string, number>();
  private readonly refreshes = new Map<string, Refresh>();

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
  approve(authorizeUrl: string, who: Installer): string {
    const params = new URL(authorizeUrl).searchParams;
    if (params.get('client_id') !== this.app.clientId) throw oauthError('invalid_client_id');
    const scopes = params.get('scope') ?? '';
    if (scopes === '') throw oauthError('invalid_scope');
    const target = this.targetOf(who);
    const given = params.get('redirect_uri') ?? undefined;
    const redirect = given ?? this.app.redirectUrl;
    if (!redirect || (this.app.redirectUrl && !redirect.startsWith(this.app.redirectUrl))) {
      throw oauthError('bad_redirect_uri');
    }
    const code = `${target.id}.${randomBytes(12).toString('hex')}`;
    const grant = { ...target, userId: who.userId, scopes, redirectUri: given };
    this.codes.set(code, { ...grant, issuedAt: this.clock(), used: false });
    const back = new URL(redirect);
    back.searchParams.set('code', code);
    const state = params.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return back.toString();
  }

  /**
   * oauth.v2.access: exchanges a code for the workspace's bot token, or (`grant_type=refresh_token`) a refresh
   * token for a new bot token and refresh token.
   */
  access(args: Obj, authorization: string | undefined): ApiBody {
    const refused = this.clientRefusal(args, authorization);
    if (refused) return refused;
    if (args.grant_type === 'refresh_token') return this.refresh(nonEmpty(args.refresh_token));
    const code = nonEmpty(args.code);
    const grant = code ? this.codes.get(code) : undefined;
    if (!grant) return fail('invalid_code');
    if (grant.used) return fail('code_already_used');
    if (this.clock() - grant.issuedAt > OAUTH_CODE_TTL_MS) return fail('invalid_code');
    if (grant.redirectUri !== undefined && args.redirect_uri !== grant.redirectUri)
      return fail('bad_redirect_uri');
    grant.used = true;
    return {
      ...this.issue(grant, grant.scopes.split(',')),
      authed_user: { id: grant.userId },
    };
  }

  /** The workspace, or the org of at least one workspace, the installer approves for; invalid_team otherwise. */
  private targetOf(who: Installer): Target {
    if ('teamId' in who) {
      if (!this.workspaces.has(who.teamId)) throw oauthError('invalid_team');
      return { id: who.teamId, org: false };
    }
    const known = [...this.workspaces.values()].some((w) => w.enterpriseId === who.enterpriseId);
    if (!known) throw oauthError('invalid_team');
    return { id: who.enterpriseId, org: true };
  }

  /** Whether `token` is a rotated bot token past its expiry (Web API calls with it fail `token_expired`). */
  expired(token: string): boolean {
    const expiry = this.expiries.get(token);
    return expiry !== undefined && this.clock() >= expiry;
  }

  /** The app's client id and secret, as form fields or HTTP Basic: the refusal when they are not the app's. */
  private clientRefusal(args: Obj, authorization: string | undefined): ApiBody | undefined {
    const basic = authorization?.startsWith('Basic ')
      ? Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8').split(':')
      : [];
    const clientId = basic[0] ?? nonEmpty(args.client_id);
    const clientSecret = basic[1] ?? nonEmpty(args.client_secret);
    if (!clientId) return fail('invalid_client_id');
    if (clientId !== this.app.clientId) return fail('invalid_client_id');
    if (clientSecret !== this.app.clientSecret) return fail('bad_client_secret');
    return undefined;
  }

  /** Spends `refreshToken` on a new pair; one unknown or spent is `invalid_refresh_token`. */
  private refresh(refreshToken: string | undefined): ApiBody {
    const refresh = refreshToken ? this.refreshes.get(refreshToken) : undefined;
    if (!refresh || refresh.spent) return fail('invalid_refresh_token');
    refresh.spent = true;
    const answer = this.issue(refresh, refresh.scopes);
    this.revokeBeyondLimit(refresh.id);
    return answer;
  }

  /**
   * oauth.v2.access's answer for a new bot token of `target`: with a refresh token when rotation is on. An org's
   * has no team (Slack's org-wide install: `team: null`, `is_enterprise_install: true`).
   */
  private issue(target: Target, scopes: string[]): ApiBody {
    const rotating = this.app.tokenRotation === true;
    const bot = this.mint(target, scopes, rotating ? 'xoxe.xoxb' : 'xoxb');
    const workspace = this.workspaces.get(target.id);
    const org = target.org ? target.id : workspace?.enterpriseId;
    return {
      ok: true,
      access_token: bot.botToken,
      token_type: 'bot',
      scope: scopes.join(','),
      bot_user_id: bot.botUserId,
      app_id: this.appId,
      team: target.org ? null : { name: workspace?.name ?? target.id, id: target.id },
      enterprise: org === undefined ? null : { name: org, id: org },
      is_enterprise_install: target.org,
      ...(rotating ? this.rotation(bot.botToken, target, scopes) : {}),
    };
  }

  /** A rotated token's expiry and its refresh token: the answer's `expires_in` and `refresh_token`. */
  private rotation(token: string, target: Target, scopes: string[]): Obj {
    const refreshToken = `xoxe-1-${randomBytes(16).toString('hex')}`;
    this.refreshes.set(refreshToken, { ...target, scopes, spent: false });
    this.expiries.set(token, this.clock() + ROTATED_TOKEN_TTL_SEC * 1000);
    return { expires_in: ROTATED_TOKEN_TTL_SEC, refresh_token: refreshToken };
  }

  /** Slack's 2 active token limit: past it, the workspace's oldest live rotated tokens are revoked. */
  private revokeBeyondLimit(teamId: string): void {
    const live = [...this.expiries].filter(
      ([token]) => this.installed.get(token)?.teamId === teamId && !this.expired(token),
    );
    for (const [token] of live.slice(0, Math.max(0, live.length - LIVE_TOKENS_MAX))) {
      this.installed.delete(token);
      this.expiries.delete(token);
    }
  }

  /** A bot token of `target`; an org's names the org as its team (whose calls and limits they count in). */
  private mint(target: Target, scopes: readonly string[], kind: 'xoxb' | 'xoxe.xoxb'): Identity {
    const teamId = target.id;
    const workspace = this.workspaces.get(teamId);
    const identity: Identity = {
      teamId,
      ...(target.org ? { enterpriseId: teamId } : {}),
      teamDomain: workspace?.teamDomain ?? teamId.toLowerCase(),
      botUserId: `U0BOT${teamId}`,
      botId: `B0BOT${teamId}`,
      appId: this.appId,
      botToken: `${kind}-${teamId}-${randomBytes(12).toString('hex')}`,
      scopes,
    };
    this.installed.set(identity.botToken, identity);
    return identity;
  }
}

function oauthError(code: string): StandinError {
  return new StandinError(code, `Slack's authorize page would refuse this install: ${code}`);
}
