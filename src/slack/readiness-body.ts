// What /readyz answers: whether this replica is ready (serving, Redis answering, in Socket Mode Slack taking the
// app-level token) and, shown but not required, Redis out of memory and each MCP server's state.
import type { ServerStatus } from '../mcp/index.js';
import { checkRedis } from '../readiness.js';
import type { SlackApp } from './app.js';
import type { Readiness } from './http-server.js';
import type { RedisMemoryLog } from './redis-memory-log.js';
import type { SlackOptions } from './slack.js';

/**
 * Ready: serving (started, not draining), Redis answers and, in Socket Mode, Slack takes the app-level token
 * (`socketMode`: a reconnect under way is shown, not failed); each MCP server's state is shown, not required.
 * A Redis out of memory (`redis: 'oom'`, told to `memoryLog`) is shown, not failed: every replica shares it
 * (src/readiness.ts).
 */
export async function readiness(
  options: Pick<SlackOptions, 'state' | 'serving' | 'servers'>,
  socketModeOf: SlackApp['socketMode'],
  memoryLog?: RedisMemoryLog,
): Promise<Readiness> {
  const check = await checkRedis(options.state);
  memoryLog?.checked(check);
  const redis = check.readiness;
  const serving = options.serving();
  const socketMode = socketModeOf?.();
  const ok = serving && (redis === 'ok' || redis === 'oom') && socketMode?.state !== 'refused';
  const servers = options.servers().map(shownServer);
  return { ok, serving, redis, ...(socketMode ? { socketMode } : {}), servers };
}

/**
 * A server as /readyz shows it: its state and revision. Its last error (up to 300 characters of the server's or
 * the network's words: internal hosts, error bodies) is for the logs and `/mcp servers`, not for an unauthenticated
 * probe on the public port.
 */
function shownServer({
  server,
  state,
  protocolVersion,
}: ServerStatus): Pick<ServerStatus, 'server' | 'state' | 'protocolVersion'> {
  return { server, state, ...(protocolVersion === undefined ? {} : { protocolVersion }) };
}
