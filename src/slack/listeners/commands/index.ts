// Slash commands: `/mcp`.
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { mcpCommand } from './mcp.js';

export function register(app: App, deps: ListenerDeps): void {
  app.command('/mcp', async (args) => mcpCommand(args, deps));
}
