// `elicit-relay ask` and `elicit-relay call`: the command lines of the API client, parsed without I/O (a
// --schema naming a file is read through the `readFile` passed in). Wrong use is a UsageError (exit 2).
import { got } from '../api/refusals.js';
import { DURATION_WORDS } from '../api/schemas.js';
import { parseDuration } from '../config/duration.js';
import { MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from '../config/elicitation.js';
import { RelayError } from '../relay/errors.js';

export const CLIENT_USAGE = `Usage:
  elicit-relay ask --message <text> --to <U…|C…|S…> [--schema <file or JSON>] [--timeout <duration>]
                   [--team <T…>] [--url <base URL>] [--token <token>]
  elicit-relay call --server <name> --tool <name> [--args <JSON>] --as <U…> [--team <T…>]
                    [--url <base URL>] [--token <token>]

  --to        a person (U…), several people (U1,U2), a channel whose members may answer (C…) or a user group (S…)
  --schema    the form's requestedSchema; default {"type":"object","properties":{}} (an approve/decline question)
  --timeout   how long people have to answer, from 1s to 30d: e.g. 90s, 30m, 2h or whole milliseconds
              (default: the bot's)
  --team      the Slack workspace (team id T…) of --to or --as: required when the bot is installed in several
              workspaces, ignored when it serves one; default $ELICIT_RELAY_TEAM
  --url       the bot's base URL, default $ELICIT_RELAY_URL
  --token     the API token, default $ELICIT_RELAY_API_TOKEN

ask prints {"action", "content"?} and exits 0 accepted, 1 declined, 3 cancelled or timed out;
call prints the tool's CallToolResult and exits 0 completed, 4 failed. Both exit 2 on a usage error (the bot's
too: an invalid --to, --timeout, --schema or --server), 4 on any other error (a user group with no members, a
token or target the bot refuses, the bot unreachable).`;

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

/** The workspace of the people named (the API's `team`, or a call's `as.team`), when given. */
interface Workspace {
  team?: string;
}

export type ClientCommand =
  | ({ command: 'ask'; message: string; to: Target; requestedSchema: unknown; timeout?: string } & Workspace &
      Connection)
  | ({
      command: 'call';
      server: string;
      tool: string;
      arguments: Record<string, unknown>;
      as: string;
    } & Workspace &
      Connection)
  | { command: 'help' };

/** The default form: no fields, so the card is a plain approve (Respond) or Decline. */
export const APPROVE_SCHEMA = { type: 'object', properties: {} };

const FLAGS = {
  ask: ['message', 'to', 'schema', 'timeout', 'team', 'url', 'token'],
  call: ['server', 'tool', 'args', 'as', 'team', 'url', 'token'],
} as const;

export interface ParseSources {
  env: Record<string, string | undefined>;
  readFile: (path: string) => string;
}

export function parseClientArgs(argv: string[], sources: ParseSources): ClientCommand {
  const [command, ...rest] = argv;
  if (command !== 'ask' && command !== 'call') {
    throw new ClientUsageError(`the command must be ask or call${got(command) || ', got nothing'}`);
  }
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help' };
  const flags = readFlags(rest, command);
  const connection = connectionOf(flags, sources.env);
  const team = teamOf(flags.get('team'), sources.env.ELICIT_RELAY_TEAM);
  const workspace = team === undefined ? {} : { team };
  if (command === 'ask') {
    const timeout = timeoutOf(flags.get('timeout'));
    return {
      command,
      message: required(flags, 'message'),
      to: targetOf(required(flags, 'to')),
      requestedSchema: schemaOf(flags.get('schema'), sources.readFile),
      ...(timeout === undefined ? {} : { timeout }),
      ...workspace,
      ...connection,
    };
  }
  return {
    command,
    server: required(flags, 'server'),
    tool: required(flags, 'tool'),
    arguments: argumentsOf(flags.get('args')),
    as: userOf(required(flags, 'as'), '--as'),
    ...workspace,
    ...connection,
  };
}

/** `--name value` and `--name=value`, each flag once; a value that starts with "--" only as `--name=value`. */
function readFlags(rest: string[], command: keyof typeof FLAGS): Map<string, string> {
  const known: readonly string[] = FLAGS[command];
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    const match = /^--([a-z]+)(?:=(.*))?$/s.exec(arg);
    const name = match?.[1];
    if (name === undefined || !known.includes(name)) {
      const takes = known.map((flag) => `--${flag}`).join(', ');
      throw new ClientUsageError(`unknown option ${JSON.stringify(arg)}: ${command} takes ${takes}`);
    }
    const value = match?.[2] ?? rest[++i];
    if (value === undefined) throw new ClientUsageError(`--${name} needs a value`);
    if (match?.[2] === undefined && value.startsWith('--')) {
      throw new ClientUsageError(
        `--${name} needs a value, got the option ${JSON.stringify(value)} ` +
          `(a value that starts with "--" is written --${name}=<value>)`,
      );
    }
    if (flags.has(name)) throw new ClientUsageError(`--${name} is given twice`);
    flags.set(name, value);
  }
  return flags;
}

function required(flags: Map<string, string>, name: string): string {
  const value = flags.get(name);
  if (value === undefined) throw new ClientUsageError(`--${name} is required`);
  if (value.trim() === '') throw new ClientUsageError(`--${name} must not be blank`);
  return value;
}

const URL_WORDS = 'an http(s) URL like https://relay.example.com';

/** The flag wins over the variable; a refusal names whichever the value came from (the token never shown). */
function connectionOf(flags: Map<string, string>, env: ParseSources['env']): Connection {
  const urlFlag = flags.get('url');
  const url = urlFlag ?? env.ELICIT_RELAY_URL;
  const tokenFlag = flags.get('token');
  if (url === undefined || url === '') {
    throw new ClientUsageError(
      urlFlag === undefined
        ? 'no bot URL: pass --url or set ELICIT_RELAY_URL'
        : `--url must be ${URL_WORDS}, got ""`,
    );
  }
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    const source = urlFlag === undefined ? 'ELICIT_RELAY_URL' : '--url';
    throw new ClientUsageError(`${source} must be ${URL_WORDS}${got(url)}`);
  }
  if (tokenFlag !== undefined && tokenFlag.trim() === '') {
    throw new ClientUsageError('--token must not be blank');
  }
  const token = tokenFlag ?? env.ELICIT_RELAY_API_TOKEN;
  if (!token) throw new ClientUsageError('no API token: pass --token or set ELICIT_RELAY_API_TOKEN');
  return { url: url.replace(/\/+$/, ''), token };
}

/**
 * --timeout as the API reads it (src/api/settings.ts), refused in its words: whole milliseconds from 1s to 30d.
 * A bare number (or one in ms) with a fraction is refused too: the API, given it as a string, would round it
 * and wait another time than the one typed ("1500.5" → 1501 ms).
 */
function timeoutOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  const fractionOfMs = /^\s*\d+\.\d+\s*(ms)?\s*$/.test(value);
  if (ms === undefined || fractionOfMs || ms < MIN_TIMEOUT_MS || ms > MAX_TIMEOUT_MS) {
    throw new ClientUsageError(`--timeout must be ${DURATION_WORDS}${got(value)}`);
  }
  return value;
}

/** Slack ids as the API's schemas take them (src/api/schemas.ts), and its words for each. */
const TEAM_ID = /^T[A-Z0-9]{1,20}$/;
const USER_ID = /^[UW][A-Z0-9]{1,20}$/;
const CHANNEL_ID = /^[CG][A-Z0-9]{1,20}$/;
const USERGROUP_ID = /^S[A-Z0-9]{1,20}$/;
const USER_WORDS = 'a user id like U… or W…';
const TARGET_WORDS = `${USER_WORDS}, several joined by commas (U1,U2), a channel id like C… or G…, or a user group id like S…`;

/**
 * --team, else ELICIT_RELAY_TEAM (empty counts as unset: a CI variable defined for every job, blank in some); a
 * refusal names whichever the value came from. Checked here, as the API would refuse it (400 `/team`), so a
 * typo is a usage error before anything is asked.
 */
function teamOf(flag: string | undefined, variable: string | undefined): string | undefined {
  if (flag !== undefined && flag.trim() === '') throw new ClientUsageError('--team must not be blank');
  const value = flag ?? (variable === '' ? undefined : variable);
  if (value === undefined || TEAM_ID.test(value)) return value;
  const source = flag === undefined ? 'ELICIT_RELAY_TEAM' : '--team';
  throw new ClientUsageError(`${source} must be a workspace (team) id like T…${got(value)}`);
}

function userOf(value: string, flag: string): string {
  if (!USER_ID.test(value)) throw new ClientUsageError(`${flag} must be ${USER_WORDS}${got(value)}`);
  return value;
}

/**
 * One id, or people joined by commas. An empty entry ("U1,", from a variable that expanded to nothing) is
 * refused, not skipped: skipping it would ask fewer people than the script meant, without a word.
 */
function targetOf(value: string): Target {
  const ids = value.split(',').map((id) => id.trim());
  if (ids.length > 1) {
    if (ids.includes('')) {
      throw new ClientUsageError(
        `--to has an empty entry (${JSON.stringify(value)}): each entry of a list must be ${USER_WORDS}`,
      );
    }
    const wrong = ids.find((id) => !USER_ID.test(id));
    if (wrong !== undefined) {
      throw new ClientUsageError(
        `--to lists several people, so each must be ${USER_WORDS}${got(wrong)} in ${JSON.stringify(value)}`,
      );
    }
    return { users: ids };
  }
  const id = value.trim();
  if (USER_ID.test(id)) return { user: id };
  if (CHANNEL_ID.test(id)) return { channel: id };
  if (USERGROUP_ID.test(id)) return { usergroup: id };
  throw new ClientUsageError(`--to must be ${TARGET_WORDS}${got(value)}`);
}

/** Inline JSON when it starts with "{", else a file holding it; a refusal names the file. */
function schemaOf(value: string | undefined, readFile: ParseSources['readFile']): unknown {
  if (value === undefined) return APPROVE_SCHEMA;
  if (value.trimStart().startsWith('{')) return jsonObject(value, '--schema', '');
  let text: string;
  try {
    text = readFile(value);
  } catch (cause) {
    throw new ClientUsageError(
      `--schema must be a JSON object or a file holding one; cannot read ${JSON.stringify(value)} (${reason(cause)})`,
    );
  }
  // Notepad and PowerShell (Out-File, Set-Content -Encoding utf8) start UTF-8 files with a byte order mark,
  // which JSON.parse refuses; RFC 8259 §8.1 lets a parser ignore it.
  return jsonObject(text.replace(/^\uFEFF/, ''), '--schema', ` (from ${JSON.stringify(value)})`);
}

function argumentsOf(value: string | undefined): Record<string, unknown> {
  if (value === undefined) return {};
  return Object.fromEntries(Object.entries(jsonObject(value, '--args', '')));
}

/** `text` parsed as a JSON object, else a refusal naming `flag`, ending with `from` (where the text came from). */
function jsonObject(text: string, flag: string, from: string): object {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new ClientUsageError(`${flag} must be valid JSON (${reason(cause)})${from}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ClientUsageError(`${flag} must be a JSON object${got(parsed)}${from}`);
  }
  return parsed;
}

const reason = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause));
