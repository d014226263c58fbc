// Parses the text of `/mcp …`. Pure: text in, a command or a usage problem out (the listener words it
// in the person's language).
export type CommandProblem =
  | 'unknown_subcommand'
  | 'run_needs_tool'
  | 'tools_needs_server'
  | 'connect_needs_server'
  | 'bad_json'
  | 'not_object';

export type McpCommand =
  | { kind: 'help' }
  | { kind: 'servers' }
  | { kind: 'tools'; server: string }
  /** Sign in to a server that needs it, or forget the person's sign-in (issue #20). */
  | { kind: 'connect' | 'disconnect'; server: string }
  /** `args` absent: the person gave none, so the tool's arguments are asked in a form. */
  | { kind: 'run'; server: string; tool: string; args?: Record<string, unknown> }
  | { kind: 'invalid'; problem: CommandProblem; verb?: string };

export function parseMcpCommand(text: string): McpCommand {
  const trimmed = text.trim();
  const [verb = '', server] = trimmed.split(/\s+/);
  if (verb === '' || verb === 'help') return { kind: 'help' };
  if (verb === 'servers') return { kind: 'servers' };
  if (verb === 'tools') return server ? { kind: 'tools', server } : invalid('tools_needs_server');
  if (verb === 'connect' || verb === 'disconnect') {
    return server ? { kind: verb, server } : invalid('connect_needs_server');
  }
  if (verb !== 'run') return { kind: 'invalid', problem: 'unknown_subcommand', verb };
  const match = /^run\s+(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(trimmed);
  if (!match?.[1] || !match[2]) return invalid('run_needs_tool');
  const json = (match[3] ?? '').trim();
  if (json === '') return { kind: 'run', server: match[1], tool: match[2] };
  let args: unknown;
  try {
    // Slack may turn straight quotes into curly ones on some clients.
    args = JSON.parse(json.replace(/[“”]/g, '"').replace(/[‘’]/g, "'"));
  } catch {
    return invalid('bad_json');
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return invalid('not_object');
  return { kind: 'run', server: match[1], tool: match[2], args: args as Record<string, unknown> };
}

const invalid = (problem: CommandProblem): McpCommand => ({ kind: 'invalid', problem });
