// Slash commands: `/mcp`.
import type { ListenerDeps } from '../deps.js';
import type { InteractionRoutes } from '../routes.js';
import { mcpCommand } from './mcp.js';

export function register(routes: InteractionRoutes, deps: ListenerDeps): void {
  routes.command('/mcp', async (args) => mcpCommand(args, deps));
}
