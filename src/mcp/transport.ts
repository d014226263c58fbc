// Default transports built from a server spec: a stdio child process or a Streamable HTTP endpoint.
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpLogger, McpServerSpec, McpTransport } from './types.js';

/** The only variables of the bot's own environment a child inherits: its secrets stay in the bot. */
const INHERITED_ENV = ['PATH', 'HOME'] as const;

/**
 * The child's environment: PATH and HOME from `parent`, then the configured `env` on top.
 * (The SDK adds LOGNAME, SHELL, TERM and USER from the bot's environment as well; it always does.)
 */
export function childEnv(
  configured: Record<string, string>,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = parent[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...configured };
}

/** Builds the transport for `spec`; a stdio child's stderr goes to `logger.debug` line by line, or nowhere. */
export function createTransport(spec: McpServerSpec, logger?: McpLogger): McpTransport {
  const t = spec.transport;
  if (t.kind === 'http') {
    return new StreamableHTTPClientTransport(new URL(t.url), { requestInit: { headers: t.headers } });
  }
  const transport = new StdioClientTransport({
    command: t.command,
    args: t.args,
    env: childEnv(t.env),
    ...(t.cwd === undefined ? {} : { cwd: t.cwd }),
    stderr: logger === undefined ? 'ignore' : 'pipe',
  });
  const stderr = transport.stderr;
  if (logger !== undefined && stderr instanceof Readable) {
    createInterface({ input: stderr }).on('line', (line) =>
      logger.debug({ server: spec.name, stderr: line }, 'mcp server stderr'),
    );
  }
  return transport;
}
