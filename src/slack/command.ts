// Parses the text of `/mcp …`. Pure: text in, a command or a usage problem out (the listener words it
// in the person's language). The subcommand is read whatever its case or width (`RUN`, `ｒｕｎ`).
import { inexactNumbers, type InexactNumber } from '../../blocks/index.js';

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
  | {
      kind: 'run';
      server: string;
      tool: string;
      args?: Record<string, unknown>;
      /** Numbers of `args` that JSON.parse rounded (absent when none): the run is refused, naming them. */
      inexactNumbers?: InexactNumber[];
    }
  | { kind: 'invalid'; problem: CommandProblem; verb?: string };

export function parseMcpCommand(text: string): McpCommand {
  const trimmed = withPlainVerb(text).trim();
  const [verb = '', server] = trimmed.split(/\s+/);
  if (verb === '' || verb === 'help') return { kind: 'help' };
  if (verb === 'servers') return { kind: 'servers' };
  if (verb === 'tools') return server ? { kind: 'tools', server } : invalid('tools_needs_server');
  if (verb === 'connect' || verb === 'disconnect') {
    return server ? { kind: verb, server } : invalid('connect_needs_server');
  }
  if (verb !== 'run') return { kind: 'invalid', problem: 'unknown_subcommand', verb };
  // A tool's name has no `{` (MCP names are letters, digits and `_-./`): JSON typed against it starts the arguments.
  const match = /^run\s+(\S+)\s+([^\s{]+)\s*([\s\S]*)$/.exec(trimmed);
  if (!match?.[1] || !match[2]) return invalid('run_needs_tool');
  const json = (match[3] ?? '').trim();
  if (json === '') return { kind: 'run', server: match[1], tool: match[2] };
  const parsed = parseArguments(json);
  if (parsed === undefined) return invalid('bad_json');
  const { value: args, text: read } = parsed;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return invalid('not_object');
  const inexact = inexactNumbers(read);
  return {
    kind: 'run',
    server: match[1],
    tool: match[2],
    args: args as Record<string, unknown>,
    ...(inexact.length > 0 ? { inexactNumbers: inexact } : {}),
  };
}

const invalid = (problem: CommandProblem): McpCommand => ({ kind: 'invalid', problem });

/** The subcommands parseMcpCommand knows. */
const VERBS: readonly string[] = ['help', 'servers', 'tools', 'run', 'connect', 'disconnect'];

/** The leading blanks, the first word, and the rest (JS's `\s` covers U+3000, the ideographic space). */
const FIRST_WORD = /^(\s*)(\S+)([\s\S]*)$/;

/**
 * `text` with its first word written as the subcommand it names once full-width forms are made plain (NFKC) and
 * case is ignored: a phone capitalises the first word (`Run`), caps lock types `RUN`, a Chinese input method in
 * full-width mode `ｒｕｎ`. The rest (server, tool, JSON arguments) stays as typed, since names and values are
 * case-sensitive; any other first word is left as typed, so an unknown one is quoted as typed.
 */
function withPlainVerb(text: string): string {
  const match = FIRST_WORD.exec(text);
  if (!match) return text;
  const [, blanks = '', word = '', rest = ''] = match;
  const verb = word.normalize('NFKC').toLowerCase();
  return VERBS.includes(verb) ? `${blanks}${verb}${rest}` : text;
}

/**
 * The command text as typed: Slack sends it with `&`, `<` and `>` escaped (`&amp;` `&lt;` `&gt;`, its
 * "Formatting text" rules), and the tool is to get the characters the person typed. `&amp;` is decoded last,
 * so a typed "&lt;" (sent as "&amp;lt;") stays "&lt;".
 */
export function unescapeCommandText(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * The JSON value of `json` and the text it was read from (its numbers' tokens are read there), or undefined when
 * it is not JSON even with its curly-quote delimiters mended.
 */
function parseArguments(json: string): { value: unknown; text: string } | undefined {
  // As typed first: curly quotes inside a string (Chinese quotation marks, "Let’s") are the person's text.
  try {
    const value: unknown = JSON.parse(json);
    return { value, text: json };
  } catch {
    // Some Slack clients turn the straight quotes typed around keys and values into curly ones.
  }
  const text = straightenDelimiters(json);
  try {
    const value: unknown = JSON.parse(text);
    return { value, text };
  } catch {
    return undefined;
  }
}

/** A string's end: what may follow its closing quote in JSON (whitespace, then `:` `,` `}` `]`, or nothing). */
const STRING_END = /\s*(?:[:,}\]]|$)/y;

/**
 * `json` with the curly double quotes that stand where JSON's quotes go made straight: any outside a string
 * (it opens one), and inside a string one that a string's end follows (it closes it). Every other character,
 * curly quotes within a string's text included, is kept.
 */
export function straightenDelimiters(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i += 1) {
    const c = json.charAt(i);
    if (inString && c === '\\') {
      // An escape: the next character is the string's, whatever it is.
      out += json.slice(i, i + 2);
      i += 1;
    } else if (c === '"') {
      inString = !inString;
      out += c;
    } else if ((c === '“' || c === '”') && (!inString || endsString(json, i + 1))) {
      inString = !inString;
      out += '"';
    } else {
      out += c;
    }
  }
  return out;
}

function endsString(json: string, at: number): boolean {
  STRING_END.lastIndex = at;
  return STRING_END.test(json);
}
