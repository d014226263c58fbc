// The `mcpServers` section, in the shape Claude Desktop, Cursor and VS Code write it:
//   mcpServers: { <name>: { command, args, env } | { url, headers } }
// plus our optional per-server `startupTimeout`, `elicitation` (elicitation.ts) and `slack` (slack-policy.ts).
// Unknown keys at the top level and in a server's entry (Claude Desktop has several) are ignored so that its file
// works unchanged; inside our own sections they are refused (known-keys.ts).
import { ConfigError } from './error.js';
import { MIN_TIMEOUT_MS, readElicitation } from './elicitation.js';
import { isRecord } from './mapping.js';
import { readServerAuth } from './server-auth.js';
import { readSlackPolicy } from './slack-policy.js';
import type { ServerConfig, TransportConfig } from './types.js';
import { parseDuration } from './duration.js';
import { readHttpUrl } from './url.js';
import { expand } from './expand.js';

type Env = Record<string, string | undefined>;

/** `startupTimeout`'s ceiling: 10 min, past any package download; a server silent that long is down. */
export const MAX_STARTUP_TIMEOUT_MS = 10 * 60_000;

export function readServers(file: unknown, env: Env): ServerConfig[] {
  if (file === null || file === undefined) return [];
  if (!isRecord(file))
    throw new ConfigError('(config file)', 'is not a mapping', 'Write `mcpServers:` at the top level.');
  const servers = file.mcpServers;
  if (servers === undefined) return [];
  if (!isRecord(servers)) {
    throw new ConfigError(
      'mcpServers',
      'is not a mapping',
      'Write one entry per server: `mcpServers: { name: { command: … } }`.',
    );
  }
  return Object.entries(servers).map(([name, entry]) => readServer(name, entry, env));
}

function readServer(name: string, entry: unknown, env: Env): ServerConfig {
  const key = `mcpServers.${name}`;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
    throw new ConfigError(
      key,
      'has a name that cannot be typed in /mcp run',
      'Use 1–64 letters, digits, ".", "_" or "-".',
    );
  }
  if (!isRecord(entry))
    throw new ConfigError(key, 'is not a mapping', 'Give it `command` (stdio) or `url` (HTTP).');
  const slack = readSlackPolicy(key, entry.slack);
  const transport = readTransport(key, entry, env);
  const auth = readServerAuth(key, entry.auth, transport.kind, (k, v) => expand(k, v, env));
  return {
    name,
    transport,
    ...(entry.startupTimeout === undefined
      ? {}
      : { startupTimeoutMs: readStartupTimeout(`${key}.startupTimeout`, entry.startupTimeout) }),
    ...(auth ? { auth } : {}),
    ...readElicitation(key, entry.elicitation),
    ...(slack ? { slack } : {}),
    ...(readGateway(key, entry.gateway) ? { gateway: true } : {}),
  };
}

/** `gateway: true` offers the server's tools at the bot's MCP endpoint; default false. */
function readGateway(key: string, gateway: unknown): boolean {
  if (gateway === undefined || typeof gateway === 'boolean') return gateway === true;
  throw new ConfigError(
    `${key}.gateway`,
    `${JSON.stringify(gateway)} is not true or false`,
    'Write `gateway: true` to offer its tools at POST /mcp, or leave it out.',
  );
}

/** Values of `type` that editors write for the transports we speak. */
const TRANSPORT_TYPES = ['stdio', 'http', 'streamable-http', 'streamableHttp'];

function readTransport(key: string, entry: Record<string, unknown>, env: Env): TransportConfig {
  const type = entry.type;
  if (type !== undefined && !(typeof type === 'string' && TRANSPORT_TYPES.includes(type))) {
    throw new ConfigError(
      `${key}.type`,
      `${JSON.stringify(type)} is not supported`,
      'Use "stdio" or "http" (Streamable HTTP).',
    );
  }
  if (entry.command !== undefined && entry.url !== undefined) {
    throw new ConfigError(
      key,
      'has both `command` and `url`',
      'Keep `command` for a local process or `url` for a remote server.',
    );
  }
  if (entry.url !== undefined) {
    const url = readHttpUrl(
      `${key}.url`,
      expand(`${key}.url`, requireString(`${key}.url`, entry.url), env),
      'Use the server’s Streamable HTTP endpoint, e.g. https://host/mcp.',
    );
    return { kind: 'http', url, headers: readStringMap(`${key}.headers`, entry.headers, env) };
  }
  if (entry.command === undefined)
    throw new ConfigError(key, 'has neither `command` nor `url`', 'Add `command` (stdio) or `url` (HTTP).');
  const args = entry.args ?? [];
  if (!Array.isArray(args))
    throw new ConfigError(`${key}.args`, 'is not a list', 'Write the arguments as a list of strings.');
  const transport: TransportConfig = {
    kind: 'stdio',
    command: expand(`${key}.command`, requireString(`${key}.command`, entry.command), env),
    args: args.map((arg, i) => expand(`${key}.args[${i}]`, requireString(`${key}.args[${i}]`, arg), env)),
    env: readStringMap(`${key}.env`, entry.env, env),
  };
  if (entry.cwd !== undefined)
    transport.cwd = expand(`${key}.cwd`, requireString(`${key}.cwd`, entry.cwd), env);
  return transport;
}

/** `startupTimeout`: how long the server has to answer MCP's handshake once started (parsed as `timeout`). */
function readStartupTimeout(key: string, timeout: unknown): number {
  const ms = parseDuration(timeout);
  if (ms === undefined || ms < MIN_TIMEOUT_MS || ms > MAX_STARTUP_TIMEOUT_MS) {
    throw new ConfigError(
      key,
      `${JSON.stringify(timeout)} is not a duration between 1s and 10m`,
      'Use a duration such as "30s" or "2m", or a number of milliseconds (default 30s; raise it for a server started through npx or uvx that downloads its package first).',
    );
  }
  return ms;
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
