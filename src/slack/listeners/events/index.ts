// Events API events: the App Home opened.
import type { ListenerDeps } from '../deps.js';
import type { InteractionRoutes } from '../routes.js';
import { appHomeOpened } from './app-home-opened.js';

export function register(routes: InteractionRoutes, deps: ListenerDeps): void {
  routes.event('app_home_opened', async (args) => appHomeOpened(args, deps));
}
