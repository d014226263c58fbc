// Helpers shared by the example MCP servers: run over stdio, and report an elicitation's outcome as text.
import { pathToFileURL } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export type ToolText = { content: { type: 'text'; text: string }[]; isError?: boolean };

export const text = (value: string, isError = false): ToolText => ({
  content: [{ type: 'text', text: value }],
  ...(isError && { isError }),
});

/** The server-side wait for one answer, in ms: longer than the bot's own timeout, so the bot's wins. */
export const SERVER_WAIT_MS = 60 * 60_000;

/** Elicits a form and reports exactly what the person answered (or the error) as the tool result. */
export async function askAndReport(
  server: McpServer,
  message: string,
  requestedSchema: Record<string, unknown>,
): Promise<ToolText> {
  try {
    const params = { mode: 'form', message, requestedSchema } as unknown as ElicitRequestFormParams;
    const result: ElicitResult = await server.server.elicitInput(params, { timeout: SERVER_WAIT_MS });
    return text(JSON.stringify({ action: result.action, content: result.content }, null, 2));
  } catch (error) {
    return text(error instanceof Error ? error.message : String(error), true);
  }
}

/** Connects the server to stdin/stdout when the module is the process's entry point. */
export async function runIfMain(moduleUrl: string, create: () => McpServer): Promise<void> {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  await create().connect(new StdioServerTransport());
}
