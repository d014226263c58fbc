// Multi-workspace distribution with Bolt's OAuth flow (@slack/oauth's InstallProvider, as Bolt's receivers use
// it): /slack/install shows the Add to Slack page and sets the state cookie, /slack/oauth_redirect exchanges the
// code (oauth.v2.access) and keeps the installation in Redis, and `authorize` hands Bolt each workspace's bot
// token on every request. Served on our own HTTP server, so it works the same in HTTP and Socket Mode.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Authorize, InstallationStore, Logger as BoltLogger, webApi } from '@slack/bolt';
import { InstallProvider } from '@slack/oauth';
import type { OAuthConfig } from '../config/index.js';
import { BOT_SCOPES } from './scopes.js';
import { InstalledWorkspaces, type SlackClients } from './workspaces.js';

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';

export interface DistributedApp {
  authorize: Authorize<boolean>;
  clients: SlackClients;
  /** GET routes of the install flow. */
  routes: Record<string, RequestListener>;
}

export function distributedApp(
  oauth: OAuthConfig,
  deps: {
    installations: InstallationStore;
    clientOptions: webApi.WebClientOptions & { slackApiUrl: string };
    logger: BoltLogger;
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
  const installUrlOptions = { scopes: [...BOT_SCOPES] };
  const install = (req: IncomingMessage, res: ServerResponse): void => {
    installer.handleInstallPath(req, res, {}, installUrlOptions).catch((error: unknown) => {
      deps.logger.error(`the install page failed: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
  return {
    authorize: (source) => installer.authorize(source),
    clients: new InstalledWorkspaces(deps.installations, deps.clientOptions),
    // handleCallback answers every failure itself (a page saying what went wrong) and never rejects.
    routes: {
      [INSTALL_PATH]: install,
      [REDIRECT_PATH]: (req, res) => void installer.handleCallback(req, res),
    },
  };
}
