// `elicit-relay sandbox --server …`: the command line of the sandbox for MCP server authors. Each
// `--server` adds one server: a stdio command line ("node ./my-server.js") or a Streamable HTTP URL,
// optionally named (`--server name=…`); otherwise the name comes from the file or the host.
import { basename } from 'node:path';
import { DEFAULT_ELICITATION_TIMEOUT_MS, type ServerConfig } from '../config/index.js';
import { RelayError } from '../relay/errors.js';

export const SANDBOX_USAGE = `Usage: elicit-relay [sandbox [--server <server>]...]

  elicit-relay                 run the bot (the sandbox when no Slack credentials are set)
  elicit-relay sandbox         run the sandbox, whatever credentials are set

  --server <server>            add an MCP server to the sandbox (repeatable):
                                 "node ./my-server.js"      a command line (stdio)
                                 https://host/mcp           a Streamable HTTP endpoint
                                 name=<command line or URL> the same, named (as in /mcp run <name> …)
  --help                       show this help`;

/** A command line the sandbox cannot run with (unknown flag, missing value, bad server). */
export class UsageError extends RelayError<string> {
  override name = 'UsageError';
  constructor(message: string) {
    super('usage', message);
  }
}

export interface CliArgs {
  command: 'run' | 'sandbox' | 'help';
  /** Servers from `--server`, in the order given. */
  servers: ServerConfig[];
}

/** Names the config and the examples already use; a derived name steps around them. */
export function parseCliArgs(argv: string[], opts: { cwd: string; taken: string[] }): CliArgs {
  if (argv.length === 0) return { command: 'run', servers: [] };
  if (argv.includes('--help') || argv.includes('-h')) return { command: 'help', servers: [] };
  const [command, ...rest] = argv;
  if (command !== 'sandbox') throw new UsageError(`unknown command "${command}"`);
  const taken = new Set(opts.taken);
  const servers: ServerConfig[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    let spec: string | undefined;
    if (arg.startsWith('--server=')) spec = arg.slice('--server='.length);
    else if (arg === '--server') spec = rest[++i];
    else throw new UsageError(`unknown option "${arg}"`);
    if (spec === undefined || spec.trim() === '')
      throw new UsageError('--server needs a command line or a URL');
    const server = serverOf(spec.trim(), opts.cwd, taken);
    taken.add(server.name);
    servers.push(server);
  }
  return { command: 'sandbox', servers };
}

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

function serverOf(spec: string, cwd: string, taken: Set<string>): ServerConfig {
  const named = /^([^=\s:/]+)=(.+)$/s.exec(spec);
  if (named?.[1] !== undefined && !NAME.test(named[1])) {
    throw new UsageError(
      `--server ${spec}: "${named[1]}" cannot be typed in /mcp run (use letters, digits, . _ -)`,
    );
  }
  const target = named?.[2] ?? spec;
  const base = {
    elicitationTimeoutMs: DEFAULT_ELICITATION_TIMEOUT_MS,
    elicitationMode: 'form' as const,
  };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    const url = parseHttpUrl(target);
    const name = named?.[1] ?? unique(url.port ? `${url.hostname}-${url.port}` : url.hostname, taken);
    return { name, transport: { kind: 'http', url: url.href, headers: {} }, ...base };
  }
  const [command, ...args] = splitCommandLine(target);
  if (command === undefined) throw new UsageError(`--server ${spec}: no command to run`);
  const name = named?.[1] ?? unique(nameOfCommand(command, args), taken);
  return { name, transport: { kind: 'stdio', command, args, env: {}, cwd }, ...base };
}

function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--server ${text}: not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--server ${text}: only http(s) URLs (Streamable HTTP) are supported`);
  }
  return url;
}

/** The server's file (or the command) without its folder and extension: "node ./my-server.js" → my-server. */
function nameOfCommand(command: string, args: string[]): string {
  const last = [...args].reverse().find((a) => !a.startsWith('-')) ?? command;
  const name = basename(last)
    .replace(/\.[cm]?[jt]s$|\.py$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .slice(0, 64);
  return name.replace(/^[-.]+|[-.]+$/g, '') || 'server';
}

function unique(name: string, taken: Set<string>): string {
  const clean = name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  if (!taken.has(clean)) return clean;
  let n = 2;
  while (taken.has(`${clean}-${n}`)) n += 1;
  return `${clean}-${n}`;
}

/** Splits a command line as a POSIX shell would for plain words, '…' and "…" quoting and \ escapes. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line.charAt(++i);
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) throw new UsageError(`unclosed ${quote} in "${line}"`);
  if (word !== undefined) words.push(word);
  return words;
}
