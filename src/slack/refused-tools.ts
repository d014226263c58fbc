// What a person is told of a tool the server listed but the MCP schema refused (tool-listing.ts on the MCP side):
// its definition is malformed, so it is not run and nothing is sent to the server. A problem in its inputSchema
// is worded as the run form words one (draft-07's meta-schema, naming the property) when draft-07 sees it too,
// else in the MCP schema's words under the keys where it lies.
import { commandText, toolSchemaProblem, type Locale } from '../../blocks/index.js';
import type { RefusedTool } from '../mcp/index.js';

export function refusedToolText(
  refused: RefusedTool,
  target: { server: string; tool: string },
  locale: Locale,
): string {
  const t = commandText(locale);
  const names = [`\`${target.tool}\``, `\`${target.server}\``] as const;
  const { path, message } = refused.problem;
  const [first, ...below] = path;
  if (first === 'inputSchema' && below.length > 0) {
    const problem = toolSchemaProblem(refused.inputSchema)?.message ?? located(below, message);
    return t.toolSchemaMalformed(...names, problem);
  }
  return t.toolDefinitionMalformed(...names, located(path, message));
}

/** `"inputSchema.type": …`: the keys below the tool (or its inputSchema) where the problem lies, then what it is. */
function located(path: string[], message: string): string {
  return path.length === 0 ? message : `"${path.join('.')}": ${message}`;
}
