// Options requests: external selects of a question form.
import type { ListenerDeps } from '../deps.js';
import type { InteractionRoutes } from '../routes.js';
import { blockSuggestion } from './block-suggestion.js';

export function register(routes: InteractionRoutes, deps: ListenerDeps): void {
  routes.blockSuggestion(async (args) => blockSuggestion(args, deps));
}
