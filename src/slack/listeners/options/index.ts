// Options requests: external selects of a question form.
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { blockSuggestion } from './block-suggestion.js';

export function register(app: App, deps: ListenerDeps): void {
  app.options<'block_suggestion'>({ type: 'block_suggestion' }, async (args) => blockSuggestion(args, deps));
}
