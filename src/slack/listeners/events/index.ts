// Events API events: the App Home opened; the app uninstalled or its bot token revoked in a workspace; an org-wide
// installation granted or refused some of its org's workspaces.
import type { ListenerDeps } from '../deps.js';
import type { InteractionRoutes } from '../routes.js';
import { appHomeOpened } from './app-home-opened.js';
import { appUninstalled, tokensRevoked } from './app-removed.js';
import { teamAccessGranted, teamAccessRevoked } from './team-access.js';

export function register(routes: InteractionRoutes, deps: ListenerDeps): void {
  routes.event('app_home_opened', async (args) => appHomeOpened(args, deps));
  routes.event('app_uninstalled', async (args) => appUninstalled(args, deps));
  routes.event('tokens_revoked', async (args) => tokensRevoked(args, deps));
  routes.event('team_access_granted', async (args) => teamAccessGranted(args, deps));
  routes.event('team_access_revoked', async (args) => teamAccessRevoked(args, deps));
}
