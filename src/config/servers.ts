// The `mcpServers` section, in the shape Claude Desktop, Cursor and VS Code write it:
//   mcpServers: { <name>: { command, args, env } | { url, headers } }
// (VS Code's `.vscode/mcp.json` calls it `servers`; either is read) plus our optional per-server `startupTimeout`,
// `elicitation` (elicitation.ts) and `slack` (slack-policy.ts). Unknown keys at the top level and in a server's
// entry (Claude Desktop has several) are ignored so that its file works unchanged; inside our own sections they are
// refused (known-keys.ts). A top-level key that only misspells `mcpServers` is refused: ignored, it loaded no server.
import { ConfigError } from './error.js';
import { MIN_TIMEOUT_MS, readElicitation } from './elicitation.js';
import { isRecord } from './mapping.js';
import { readServerAuth } from './server-auth.js';
import { readSlackPolicy } from './slack-policy.js';
import type { ServerConfig } from './types.js';
import { parseDuration } from './duration.js';
import { expand } from './expand.js';
import { readTransport, type EntrySources } from './transport.js';

/** `startupTimeout`'s ceiling: 10 min, past any package download; a server silent that long is down. */
export const MAX_STARTUP_TIMEOUT_MS = 10 * 60_000;

export function readServers(file: unknown, sources: EntrySources): ServerConfig[] {
  if (file === null || file === undefined) return [];
  if (!isRecord(file))
    throw new ConfigError('(config file)', 'is not a mapping', 'Write `mcpServers:` at the top level.');
  const section = serversSection(file);
  if (section === undefined) return [];
  const servers = file[section];
  if (!isRecord(servers)) {
    throw new ConfigError(
      section,
      'is not a mapping',
      `Write one entry per server: \`${section}: { name: { command: … } }\`.`,
    );
  }
  return Object.entries(servers)
    .filter(([name, entry]) => !isDisabled(`${section}.${name}`, entry))
    .map(([name, entry]) => readServer(`${section}.${name}`, name, entry, sources));
}

/** `mcpServers`, or VS Code's `servers`; undefined when the file has neither. */
function serversSection(file: Record<string, unknown>): 'mcpServers' | 'servers' | undefined {
  const misspelled = Object.keys(file).find(
    (key) => key !== 'mcpServers' && /^mcp_?servers?$/.test(key.toLowerCase().replace(/[\s-]/g, '')),
  );
  if (misspelled !== undefined)
    throw new ConfigError(
      misspelled,
      'is not `mcpServers`',
      'Rename it to `mcpServers` (the key is case-sensitive).',
    );
  if (file.mcpServers !== undefined && file.servers !== undefined) {
    throw new ConfigError(
      'servers',
      'is set beside `mcpServers`',
      'Move its entries under `mcpServers` (VS Code calls the section `servers`; the bot reads either, not both).',
    );
  }
  if (file.mcpServers !== undefined) return 'mcpServers';
  return file.servers === undefined ? undefined : 'servers';
}

/** `disabled: true` (Cline, Windsurf, Roo Code) leaves the server out, as in those hosts. */
function isDisabled(key: string, entry: unknown): boolean {
  const disabled = isRecord(entry) ? entry.disabled : undefined;
  if (disabled === undefined || typeof disabled === 'boolean') return disabled === true;
  throw new ConfigError(
    `${key}.disabled`,
    `${JSON.stringify(disabled)} is not true or false`,
    'Write `disabled: true` to leave the server out, or remove the key.',
  );
}

/** `key`: the entry's path, `mcpServers.<name>` or `servers.<name>`. */
function readServer(key: string, name: string, entry: unknown, sources: EntrySources): ServerConfig {
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
  const transport = readTransport(key, entry, sources);
  const auth = readServerAuth(key, entry.auth, transport.kind, (k, v) => expand(k, v, sources.env));
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
