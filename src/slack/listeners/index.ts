// Every handler is registered here, on the routes that one global Bolt middleware dispatches by (routes.ts):
// view submissions and closes, block actions, commands, events and options requests.
import type { App } from '@slack/bolt';
import * as actions from './actions/index.js';
import * as commands from './commands/index.js';
import * as events from './events/index.js';
import * as options from './options/index.js';
import * as views from './views/index.js';
import type { ListenerDeps } from './deps.js';
import { InteractionRoutes } from './routes.js';

export type { ListenerDeps } from './deps.js';

export function registerListeners(app: App, deps: ListenerDeps): void {
  const routes = new InteractionRoutes();
  actions.register(routes, deps);
  views.register(routes, deps);
  commands.register(routes, deps);
  events.register(routes, deps);
  options.register(routes, deps);
  routes.mount(app);
}
