// Parses the text of `/mcp …`. Pure: text in, a command or a usage error out.
export type McpCommand =
  | { kind: 'help' }
  | { kind: 'servers' }
  | { kind: 'run'; server: string; tool: string; args: Record<string, unknown> }
  | { kind: 'invalid'; problem: string };

export const USAGE = [
  '*Usage*',
  '`/mcp run <server> <tool> <JSON arguments>`: call a tool; its questions come to you here',
  '`/mcp servers`: list the configured MCP servers',
  '`/mcp help`: this text',
].join('\n');

export function parseMcpCommand(text: string): McpCommand {
  const trimmed = text.trim();
  const [verb = ''] = trimmed.split(/\s+/);
  if (verb === '' || verb === 'help') return { kind: 'help' };
  if (verb === 'servers') return { kind: 'servers' };
  if (verb !== 'run') return { kind: 'invalid', problem: `Unknown subcommand \`${verb}\`.` };
  const match = /^run\s+(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(trimmed);
  if (!match?.[1] || !match[2])
    return { kind: 'invalid', problem: 'Name a server and a tool: `/mcp run <server> <tool> {…}`.' };
  const json = (match[3] ?? '').trim();
  if (json === '') return { kind: 'run', server: match[1], tool: match[2], args: {} };
  let args: unknown;
  try {
    // Slack may turn straight quotes into curly ones on some clients.
    args = JSON.parse(json.replace(/[“”]/g, '"').replace(/[‘’]/g, "'"));
  } catch {
    return { kind: 'invalid', problem: 'The arguments are not valid JSON.' };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { kind: 'invalid', problem: 'The arguments must be a JSON object, e.g. `{"name": "x"}`.' };
  }
  return { kind: 'run', server: match[1], tool: match[2], args: args as Record<string, unknown> };
}
