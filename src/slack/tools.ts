// The MCP side as the Slack side sees it: servers, their tools, and tool calls for `/mcp`.
import type { ServerStatus, ToolCall, ToolResult, ToolSummary } from '../mcp/index.js';
import type { Origin } from '../relay/types.js';

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
