// A tool the hub refuses to run (malformed_tool): one its listing refused (its definition breaks the MCP schema,
// or its outputSchema cannot be compiled: tool-listing.ts), or whose outputSchema the session running the call
// cannot compile (output-check.ts). Nothing is sent to the server, and while the listing stands, running the tool
// again is refused alike.
import type { RefusedTool, ToolListing } from './tool-listing.js';
import { McpClientError, type ToolSummary } from './types.js';

/**
 * The listed tool `name`; undefined when it is not listed. A tool the MCP schema refused is not called: its
 * definition is malformed, so the bot cannot know what it takes (nothing is sent to the server).
 */
export function usableTool(listing: ToolListing, name: string, server: string): ToolSummary | undefined {
  const tool = listing.tools.find((t) => t.name === name);
  const refused = tool === undefined ? listing.refused.find((t) => t.name === name) : undefined;
  if (refused === undefined) return tool;
  throw malformedTool(server, refused);
}

/** The refusal of a tool whose definition is malformed, naming where (keys below the tool) and what is wrong. */
export function malformedTool(
  server: string,
  { name, problem }: Pick<RefusedTool, 'name' | 'problem'>,
): McpClientError {
  const where = problem.path.join('.');
  return new McpClientError(
    'malformed_tool',
    server,
    `${name} on ${server} was not run: its definition is malformed (${where}: ${problem.message})`,
  );
}

/** Whether a call failed because its tool is refused (see above): it was not run. */
export function refusesTool(error: unknown): boolean {
  return error instanceof McpClientError && error.code === 'malformed_tool';
}
