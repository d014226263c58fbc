// `/mcp`: acks at once, then runs the tool; its elicitations reach the person who ran it, and so does its result.
import type { App } from '@slack/bolt';
import type { ServerStatus, ToolCall, ToolResult, ToolSummary } from '../mcp/index.js';
import type { Origin } from '../relay/types.js';
import { escapeMrkdwn } from '../../blocks/index.js';
import { USAGE, parseMcpCommand } from './command.js';
import type { SlackSurface } from './surface.js';

/** What the command needs from the MCP side. A failed call resolves with isError: the person must see it. */
export interface ToolRunner {
  serverNames(): string[];
  /** Connection state per server, for `/mcp servers`. */
  status(): ServerStatus[];
  /**
   * The server's tools (cached by the MCP side; today the same list for everyone who asks); rejects when
   * the server cannot be reached.
   */
  listTools(server: string, person: Origin): Promise<ToolSummary[]>;
  callTool(input: ToolCall): Promise<ToolResult>;
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
        const lines = deps.tools.status().map(statusLine);
        const text = lines.length ? `*MCP servers*\n${lines.join('\n')}` : 'No MCP servers are configured.';
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
        const origin = {
          userId: command.user_id,
          teamId: command.team_id,
          appId: command.api_app_id,
          channelId: command.channel_id,
        };
        const result = await deps.tools.callTool({ ...parsed, origin });
        await deps.surface.postToolResult({
          userId: command.user_id,
          teamId: command.team_id,
          server: parsed.server,
          tool: parsed.tool,
          ...result,
        });
        return undefined;
      }
    }
  });
}

const STATE_ICON: Record<string, string> = {
  connected: ':large_green_circle:',
  reconnecting: ':large_yellow_circle:',
  failed: ':red_circle:',
};

/** One line per server; server-supplied error text is escaped so it stays text. */
function statusLine(s: ServerStatus): string {
  const icon = STATE_ICON[s.state] ?? ':white_circle:';
  const failing = s.state === 'failed' || s.state === 'reconnecting';
  const extra = failing && s.lastError ? `: ${s.lastError}` : s.detail ? ` (${s.detail})` : '';
  return escapeMrkdwn(`${icon} \`${s.server}\` ${s.state}${extra}`);
}
