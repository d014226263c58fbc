// `elicit-relay ask` and `elicit-relay call`: the command lines of the API client, parsed without I/O (a
// --schema naming a file is read through the `readFile` passed in). Wrong use is a UsageError (exit 2).
import { parseDuration } from '../config/duration.js';
import { RelayError } from '../relay/errors.js';

export const CLIENT_USAGE = `Usage:
  elicit-relay ask --message <text> --to <U…|C…|S…> [--schema <file or JSON>] [--timeout <duration>]
                   [--url <base URL>] [--token <token>]
  elicit-relay call --server <name> --tool <name> [--args <JSON>] --as <U…> [--url <base URL>] [--token <token>]

  --to        a person (U…), several people (U1,U2), a channel whose members may answer (C…) or a user group (S…)
  --schema    the form's requestedSchema; default {"type":"object","properties":{}} (an approve/decline question)
  --timeout   how long people have to answer, e.g. 30m or 2h (default: the bot's)
  --url       the bot's base URL, default $ELICIT_RELAY_URL
  --token     the API token, default $ELICIT_RELAY_API_TOKEN

ask prints {"action", "content"?} and exits 0 accepted, 1 declined, 3 cancelled or timed out;
call prints the tool's CallToolResult and exits 0 completed, 4 failed. Both exit 2 on a usage error,
4 on any other error.`;

/** A command line the client cannot run with. */
export class ClientUsageError extends RelayError<'usage'> {
  override name = 'ClientUsageError';
  constructor(message: string) {
    super('usage', message);
  }
}

/** Who may answer, as the API's `to`. */
export type Target = { user: string } | { users: string[] } | { channel: string } | { usergroup: string };

interface Connection {
  url: string;
  token: string;
}

export type ClientCommand =
  | ({ command: 'ask'; message: string; to: Target; requestedSchema: unknown; timeout?: string } & Connection)
  | ({
      command: 'call';
      server: string;
      tool: string;
      arguments: Record<string, unknown>;
      as: string;
    } & Connection)
  | { command: 'help' };

/** The default form: no fields, so the card is a plain approve (Respond) or Decline. */
export const APPROVE_SCHEMA = { type: 'object', properties: {} };

const FLAGS = {
  ask: ['message', 'to', 'schema', 'timeout', 'url', 'token'],
  call: ['server', 'tool', 'args', 'as', 'url', 'token'],
} as const;

export interface ParseSources {
  env: Record<string, string | undefined>;
  readFile: (path: string) => string;
}

export function parseClientArgs(argv: string[], sources: ParseSources): ClientCommand {
  const [command, ...rest] = argv;
  if (command !== 'ask' && command !== 'call') throw new ClientUsageError(`unknown command "${command}"`);
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help' };
  const flags = readFlags(rest, FLAGS[command]);
  const connection = connectionOf(flags, sources.env);
  if (command === 'ask') {
    const timeout = flags.get('timeout');
    if (timeout !== undefined && parseDuration(timeout) === undefined) {
      throw new ClientUsageError(`--timeout "${timeout}" is not a duration such as 90s, 30m or 2h`);
    }
    return {
      command,
      message: required(flags, 'message'),
      to: targetOf(required(flags, 'to')),
      requestedSchema: schemaOf(flags.get('schema'), sources.readFile),
      ...(timeout === undefined ? {} : { timeout }),
      ...connection,
    };
  }
  return {
    command,
    server: required(flags, 'server'),
    tool: required(flags, 'tool'),
    arguments: argumentsOf(flags.get('args')),
    as: userOf(required(flags, 'as'), '--as'),
    ...connection,
  };
}

/** `--name value` and `--name=value`, each flag once. */
function readFlags(rest: string[], known: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    const match = /^--([a-z]+)(?:=(.*))?$/s.exec(arg);
    const name = match?.[1];
    if (name === undefined || !known.includes(name)) throw new ClientUsageError(`unknown option "${arg}"`);
    const value = match?.[2] ?? rest[++i];
    if (value === undefined) throw new ClientUsageError(`--${name} needs a value`);
    if (flags.has(name)) throw new ClientUsageError(`--${name} is given twice`);
    flags.set(name, value);
  }
  return flags;
}

function required(flags: Map<string, string>, name: string): string {
  const value = flags.get(name);
  if (value === undefined || value.trim() === '') throw new ClientUsageError(`--${name} is required`);
  return value;
}

function connectionOf(flags: Map<string, string>, env: ParseSources['env']): Connection {
  const url = flags.get('url') ?? env.ELICIT_RELAY_URL;
  const token = flags.get('token') ?? env.ELICIT_RELAY_API_TOKEN;
  if (!url) throw new ClientUsageError('no bot URL: pass --url or set ELICIT_RELAY_URL');
  if (!token) throw new ClientUsageError('no API token: pass --token or set ELICIT_RELAY_API_TOKEN');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new ClientUsageError(`--url "${url}" is not an http(s) URL`);
  }
  return { url: url.replace(/\/+$/, ''), token };
}

function userOf(value: string, flag: string): string {
  if (!/^[UW][A-Z0-9]+$/.test(value))
    throw new ClientUsageError(`${flag} "${value}" is not a Slack user id (U…)`);
  return value;
}

function targetOf(value: string): Target {
  const ids = value.split(',').map((id) => id.trim());
  if (ids.length > 1) return { users: ids.map((id) => userOf(id, '--to')) };
  if (/^[UW][A-Z0-9]+$/.test(value)) return { user: value };
  if (/^[CG][A-Z0-9]+$/.test(value)) return { channel: value };
  if (/^S[A-Z0-9]+$/.test(value)) return { usergroup: value };
  throw new ClientUsageError(`--to "${value}" is not a user (U…), channel (C…) or user group (S…) id`);
}

/** Inline JSON when it starts with "{", else a file holding it. */
function schemaOf(value: string | undefined, readFile: ParseSources['readFile']): unknown {
  if (value === undefined) return APPROVE_SCHEMA;
  let text = value;
  if (!value.trimStart().startsWith('{')) {
    try {
      text = readFile(value);
    } catch (cause) {
      throw new ClientUsageError(`--schema: cannot read ${value} (${String(cause)})`);
    }
  }
  const schema = parseJson(text, '--schema');
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new ClientUsageError('--schema is not a JSON object');
  }
  return schema;
}

function argumentsOf(value: string | undefined): Record<string, unknown> {
  if (value === undefined) return {};
  const parsed = parseJson(value, '--args');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ClientUsageError('--args is not a JSON object');
  }
  return Object.fromEntries(Object.entries(parsed));
}

function parseJson(text: string, flag: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ClientUsageError(`${flag} is not valid JSON (${String(cause)})`);
  }
}
