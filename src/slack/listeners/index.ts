// Every Bolt listener is registered here, one `register(app, deps)` per kind of interaction.
import type { App } from '@slack/bolt';
import * as actions from './actions/index.js';
import * as commands from './commands/index.js';
import * as events from './events/index.js';
import * as options from './options/index.js';
import * as views from './views/index.js';
import type { ListenerDeps } from './deps.js';
import { registerUnmatched } from './unmatched.js';

export type { ListenerDeps } from './deps.js';

export function registerListeners(app: App, deps: ListenerDeps): void {
  actions.register(app, deps);
  views.register(app, deps);
  commands.register(app, deps);
  events.register(app, deps);
  options.register(app, deps);
  // Last, and matching only ids none of the above takes, so nothing is acked twice.
  registerUnmatched(app, {
    viewSubmissions: views.TAKEN_SUBMISSIONS,
    viewCloses: views.TAKEN_CLOSES,
    actions: actions.TAKEN_ACTIONS,
    actionPrefixes: actions.TAKEN_ACTION_PREFIXES,
  });
}
