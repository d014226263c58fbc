// How to reach one server, as the hosts people copy their entries from write it: `command`/`args`/`env`/`cwd`
// (stdio) or `url`/`headers` (HTTP), with `type` as VS Code, Cursor and Claude Code write it, and Windsurf's
// `serverUrl` for `url`. `type: "sse"` (Claude Code, Cursor) is taken as "http": an http URL is tried as Streamable
// HTTP and falls back to legacy SSE by itself (src/mcp/transport.ts), which is how an SSE-only server answers. What the bot would otherwise ignore and leave the
// server broken (VS Code's `envFile`, a `type` that contradicts the entry, a header fetch refuses, a whole command
// line in `command`: command-line.ts) stops start-up.
import { checkProgram, type IsFile } from './command-line.js';
import { ConfigError } from './error.js';
import { expand } from './expand.js';
import { isRecord } from './mapping.js';
import type { TransportConfig } from './types.js';
import { readHttpUrl } from './url.js';

type Env = Record<string, string | undefined>;
type StdioTransport = Extract<TransportConfig, { kind: 'stdio' }>;

/** What a server's entry is read with: `${VAR}`'s environment, and whether a program's file exists. */
export interface EntrySources {
  env: Env;
  isFile: IsFile;
}

/** Values of `type` that hosts write, by the transport they mean. */
const TRANSPORT_TYPES: Record<string, TransportConfig['kind']> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  // A legacy SSE server: reached through the HTTP transport's fallback.
  sse: 'http',
};

export function readTransport(
  key: string,
  entry: Record<string, unknown>,
  { env, isFile }: EntrySources,
): TransportConfig {
  const url = readUrlKey(key, entry);
  if (entry.command !== undefined && url !== undefined) {
    throw new ConfigError(
      key,
      `has both \`command\` and \`${url.name}\``,
      'Keep `command` for a local process or `url` for a remote server.',
    );
  }
  checkType(key, entry.type, url === undefined ? 'stdio' : 'http');
  if (url !== undefined) {
    const at = `${key}.${url.name}`;
    const address = readHttpUrl(
      at,
      expand(at, requireString(at, url.value), env),
      'Use the server’s Streamable HTTP endpoint, e.g. https://host/mcp.',
    );
    return { kind: 'http', url: address, headers: readHeaders(`${key}.headers`, entry.headers, env) };
  }
  if (entry.command === undefined)
    throw new ConfigError(key, 'has neither `command` nor `url`', 'Add `command` (stdio) or `url` (HTTP).');
  const stdio = readStdio(key, entry, env);
  // The PATH the server is started with (src/mcp/transport.ts childEnv): its own `env.PATH`, else the bot's.
  const path = stdio.env.PATH ?? env.PATH;
  checkProgram(`${key}.command`, stdio.command, stdio.args, {
    isFile,
    ...(stdio.cwd === undefined ? {} : { cwd: stdio.cwd }),
    ...(path === undefined ? {} : { path }),
  });
  return stdio;
}

/** `url`, or Windsurf's `serverUrl`; not both. */
function readUrlKey(
  key: string,
  entry: Record<string, unknown>,
): { name: string; value: unknown } | undefined {
  if (entry.url !== undefined && entry.serverUrl !== undefined)
    throw new ConfigError(`${key}.serverUrl`, 'is set beside `url`', 'Keep one of them.');
  if (entry.url !== undefined) return { name: 'url', value: entry.url };
  if (entry.serverUrl !== undefined) return { name: 'serverUrl', value: entry.serverUrl };
  return undefined;
}

/** `type`, when given, must name a transport we speak and the one the entry describes. */
function checkType(key: string, type: unknown, described: TransportConfig['kind']): void {
  if (type === undefined) return;
  const kind = typeof type === 'string' ? TRANSPORT_TYPES[type] : undefined;
  if (kind === undefined) {
    throw new ConfigError(
      `${key}.type`,
      `${JSON.stringify(type)} is not supported`,
      'Use "stdio" or "http" (Streamable HTTP, with legacy SSE as its fallback).',
    );
  }
  if (kind !== described) {
    throw new ConfigError(
      `${key}.type`,
      `is ${JSON.stringify(type)} but the entry has ${described === 'stdio' ? '`command`' : '`url`'}`,
      kind === 'stdio' ? 'Give `command` (and `args`) instead of `url`.' : 'Give `url` instead of `command`.',
    );
  }
}

function readStdio(key: string, entry: Record<string, unknown>, env: Env): StdioTransport {
  if (entry.envFile !== undefined) {
    throw new ConfigError(
      `${key}.envFile`,
      'is not read by the bot',
      'Put the variables under `env` instead, each as NAME: "${NAME}" with NAME set in the bot’s environment.',
    );
  }
  const args = entry.args ?? [];
  if (!Array.isArray(args))
    throw new ConfigError(`${key}.args`, 'is not a list', 'Write the arguments as a list of strings.');
  const transport: StdioTransport = {
    kind: 'stdio',
    command: expand(`${key}.command`, requireString(`${key}.command`, entry.command), env),
    args: args.map((arg, i) => expand(`${key}.args[${i}]`, requireString(`${key}.args[${i}]`, arg), env)),
    env: readStringMap(`${key}.env`, entry.env, env),
  };
  if (entry.cwd !== undefined)
    transport.cwd = expand(`${key}.cwd`, requireString(`${key}.cwd`, entry.cwd), env);
  return transport;
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `headers`, each checked as fetch checks it before every request (which would fail each one). */
function readHeaders(key: string, value: unknown, env: Env): Record<string, string> {
  const headers = readStringMap(key, value, env);
  for (const [name, text] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name))
      throw new ConfigError(
        `${key}.${name}`,
        'is not a header name',
        'Use letters, digits and "-", no spaces.',
      );
    if (/[\r\n\0]/.test(text)) {
      throw new ConfigError(
        `${key}.${name}`,
        'has a line break in its value (after ${VAR} expansion)',
        'Remove it: a secret read from a file often ends in one.',
      );
    }
  }
  return headers;
}

function readStringMap(key: string, value: unknown, env: Env): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new ConfigError(key, 'is not a mapping', 'Write it as `NAME: value` pairs.');
  return Object.fromEntries(
    Object.entries(value).map(([name, v]) => {
      const k = `${key}.${name}`;
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        throw new ConfigError(k, 'is not a string', 'Quote the value.');
      }
      return [name, expand(k, String(v), env)];
    }),
  );
}

function requireString(key: string, value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new ConfigError(key, 'is not a non-empty string', 'Quote the value.');
  return value;
}
