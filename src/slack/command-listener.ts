// `/mcp`: acks at once, then runs the tool; its elicitations reach the person who ran it, and so does its result.
import type { App } from '@slack/bolt';
import { USAGE, parseMcpCommand } from './command.js';
import type { SlackSurface } from './surface.js';

/** What the command needs from the MCP side. A failed call resolves with isError: the person must see it. */
export interface ToolRunner {
  serverNames(): string[];
  callTool(input: { server: string; tool: string; args: Record<string, unknown>; userId: string }): Promise<{
    isError: boolean;
    text: string;
  }>;
}

export function registerMcpCommand(app: App, deps: { tools: ToolRunner; surface: SlackSurface }): void {
  app.command('/mcp', async ({ ack, command }) => {
    const parsed = parseMcpCommand(command.text);
    switch (parsed.kind) {
      case 'help':
        return ack({ response_type: 'ephemeral', text: USAGE });
      case 'invalid':
        return ack({ response_type: 'ephemeral', text: `${parsed.problem}\n\n${USAGE}` });
      case 'servers': {
        const names = deps.tools.serverNames();
        const text = names.length
          ? `MCP servers: ${names.map((n) => `\`${n}\``).join(', ')}`
          : 'No MCP servers are configured.';
        return ack({ response_type: 'ephemeral', text });
      }
      case 'run': {
        if (!deps.tools.serverNames().includes(parsed.server)) {
          return ack({
            response_type: 'ephemeral',
            text: `There is no MCP server named \`${parsed.server}\`. Try \`/mcp servers\`.`,
          });
        }
        await ack({
          response_type: 'ephemeral',
          text: `Running \`${parsed.tool}\` on \`${parsed.server}\`…`,
        });
        const result = await deps.tools.callTool({ ...parsed, userId: command.user_id });
        await deps.surface.postToolResult({
          userId: command.user_id,
          server: parsed.server,
          tool: parsed.tool,
          ...result,
        });
        return undefined;
      }
    }
  });
}
