// Events API events: the App Home opened.
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { appHomeOpened } from './app-home-opened.js';

export function register(app: App, deps: ListenerDeps): void {
  app.event('app_home_opened', async (args) => appHomeOpened(args, deps));
}
