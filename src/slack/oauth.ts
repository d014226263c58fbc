// Multi-workspace distribution with Bolt's OAuth flow (@slack/oauth's InstallProvider, as Bolt's receivers use
// it): /slack/install shows the Add to Slack page and sets the state cookie, /slack/oauth_redirect exchanges the
// code (oauth.v2.access) and keeps the installation in Redis, and `authorize` answers each request with its
// workspace's ids, bot token and client (Bolt is given it without the tokens, workspace-client.ts). Served on
// our own HTTP server, so it works the same in HTTP and Socket Mode.
//
// Bolt's listeners and every call made outside them (InstalledWorkspaces) read installations through one
// BotTokenRefresh, which refreshes a rotating bot token before it expires, one replica at a time
// (token-refresh.ts). InstallProvider's own authorize is not used: it refreshes on each replica at once.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { webApi, type Authorize, type InstallationStore, type Logger as BoltLogger } from '@slack/bolt';
import { InstallProvider } from '@slack/oauth';
import type { OAuthConfig } from '../config/index.js';
import { BOT_SCOPES } from './scopes.js';
import type { RefreshedInstallations, WorkspaceOrgs } from './state/ports.js';
import { BotTokenRefresh } from './token-refresh.js';
import { withWorkspaceClient } from './workspace-client.js';
import { InstalledWorkspaces, OrgLinks, type SlackClients } from './workspaces.js';

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';

export interface DistributedApp {
  authorize: Authorize<boolean>;
  clients: SlackClients;
  /** Each workspace's org (org-wide installs): granted and revoked by Slack's team_access events. */
  orgs: OrgLinks;
  /** GET routes of the install flow. */
  routes: Record<string, RequestListener>;
}

export function distributedApp(
  oauth: OAuthConfig,
  deps: {
    installations: InstallationStore & RefreshedInstallations & WorkspaceOrgs;
    clientOptions: webApi.WebClientOptions & { slackApiUrl: string };
    logger: BoltLogger;
    /** The wall clock, epoch ms: when a rotating bot token is refreshed. */
    now: () => number;
  },
): DistributedApp {
  const installer = new InstallProvider({
    ...oauth,
    installationStore: deps.installations,
    logger: deps.logger,
    clientOptions: deps.clientOptions,
    // Slack's authorize page sits beside its Web API: https://slack.com/oauth/v2/authorize next to /api/.
    authorizationUrl: new URL('../oauth/v2/authorize', deps.clientOptions.slackApiUrl).toString(),
  });
  const tokens = botTokens(oauth, deps);
  const orgs = new OrgLinks(deps.installations, {
    grantedTo: (org) => workspacesOf(tokens, deps.clientOptions, org),
    logger: deps.logger,
  });
  const installUrlOptions = { scopes: [...BOT_SCOPES] };
  const install = (req: IncomingMessage, res: ServerResponse): void => {
    installer.handleInstallPath(req, res, {}, installUrlOptions).catch((error: unknown) => {
      deps.logger.error(`the install page failed: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
  const clients = new InstalledWorkspaces(tokens, deps.clientOptions, orgs);
  return {
    authorize: authorizeWith(tokens, orgs, clients),
    clients,
    orgs,
    // handleCallback answers every failure itself (a page saying what went wrong) and never rejects.
    routes: {
      [INSTALL_PATH]: install,
      [REDIRECT_PATH]: (req, res) => void installer.handleCallback(req, res),
    },
  };
}

/** The installations as every caller reads them: a rotating bot token refreshed before it expires. */
function botTokens(oauth: OAuthConfig, deps: Parameters<typeof distributedApp>[1]): BotTokenRefresh {
  const noToken = new webApi.WebClient(undefined, deps.clientOptions);
  return new BotTokenRefresh({
    installations: deps.installations,
    exchange: (refreshToken) =>
      noToken.oauth.v2.access({
        client_id: oauth.clientId,
        client_secret: oauth.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      }),
    now: deps.now,
    logger: deps.logger,
  });
}

/**
 * Bolt's authorize: the workspace's (or org's) bot token and ids, as InstallProvider's authorize answers them, and
 * the workspace's client for listeners (workspace-client.ts). A request through an org-wide install notes its
 * workspace's org first, for the calls made later outside listeners.
 */
function authorizeWith(
  tokens: BotTokenRefresh,
  orgs: OrgLinks,
  clients: InstalledWorkspaces,
): Authorize<boolean> {
  return async (source, body) => {
    const installation = await tokens.fetchInstallation(source);
    const enterpriseId = installation.enterprise?.id ?? source.enterpriseId;
    const request = installation.isEnterpriseInstall === true && !isTeamAccessEvent(body);
    if (request && enterpriseId !== undefined && source.teamId) {
      await orgs.noted(source.teamId, enterpriseId);
    }
    const teamId = installation.team?.id ?? source.teamId;
    return {
      botToken: installation.bot?.token,
      botId: installation.bot?.id,
      botUserId: installation.bot?.userId,
      userToken: installation.user.token,
      teamId,
      ...(enterpriseId === undefined ? {} : { enterpriseId }),
      ...(teamId && installation.bot?.token
        ? withWorkspaceClient(clients.clientOf(teamId, installation))
        : {}),
    };
  };
}

/**
 * team_access_granted and team_access_revoked come from the org, not from a workspace: their envelope's team is
 * none of the workspaces they name (their listeners link and unlink those), so they note no link.
 */
function isTeamAccessEvent(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('event' in body)) return false;
  const { event } = body;
  const type = typeof event === 'object' && event !== null && 'type' in event ? event.type : undefined;
  return type === 'team_access_granted' || type === 'team_access_revoked';
}

/** auth.teams.list pages read per org, of 1,000 workspaces each (the method's largest `limit`). */
const TEAM_PAGES_MAX = 10;

/** The workspaces org `enterpriseId`'s org-wide installation is granted, as auth.teams.list lists them. */
async function workspacesOf(
  tokens: BotTokenRefresh,
  clientOptions: webApi.WebClientOptions,
  enterpriseId: string,
): Promise<string[]> {
  const org = { teamId: undefined, enterpriseId, isEnterpriseInstall: true };
  const installation = await tokens.fetchInstallation(org);
  const client = new webApi.WebClient(installation.bot?.token, clientOptions);
  const teams: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < TEAM_PAGES_MAX; page += 1) {
    const answer = await client.auth.teams.list({ limit: 1000, ...(cursor ? { cursor } : {}) });
    for (const team of answer.teams ?? []) if (team.id) teams.push(team.id);
    cursor = answer.response_metadata?.next_cursor;
    if (!cursor) break;
  }
  return teams;
}
