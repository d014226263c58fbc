// `/mcp servers`: one line per server, worded in the person's language. src/mcp reports each server's health as
// data (state, sessions, the latest failure's code and causes); the words are the Slack side's. Text that comes
// from the server, the network or the OS (a failure's causes) is shown as it is, escaped so it stays text.
import {
  commandText,
  escapeMrkdwn,
  type CommandText,
  type Locale,
  type ServerFailureName,
} from '../../blocks/index.js';
import type { McpClientErrorCode, ServerStatus } from '../mcp/index.js';

const STATE_ICON: Record<ServerStatus['state'], string> = {
  idle: ':white_circle:',
  connected: ':large_green_circle:',
  reconnecting: ':large_yellow_circle:',
  failed: ':red_circle:',
};

/** How each of the bot's own error codes reads to a person; a failure's causes follow it. */
export const FAILURE_OF: Record<McpClientErrorCode, ServerFailureName> = {
  connect_failed: 'connect',
  handshake_timeout: 'timeout',
  connection_closed: 'lost',
  session_expired: 'lost',
  timeout: 'timeout',
  unknown_server: 'other',
  tool_failed: 'other',
  round_expired: 'other',
  malformed_tool: 'other',
  aborted: 'other',
  closed: 'other',
};

/** The servers' lines under their header, or the note that none is configured. */
export function serversText(statuses: ServerStatus[], locale: Locale): string {
  const t = commandText(locale);
  if (statuses.length === 0) return t.noServers;
  return [t.serversHeader, ...statuses.map((s) => statusLine(s, t))].join('\n');
}

/**
 * One server: its state, the protocol revision its latest connection negotiated (e.g. "MCP 2026-07-28"), and
 * why it fails (while it does) or how many sessions people have open to it.
 */
function statusLine(s: ServerStatus, t: CommandText): string {
  const failing = s.state === 'failed' || s.state === 'reconnecting';
  const revision = s.protocolVersion ? `, MCP ${s.protocolVersion}` : '';
  const why = failing && s.lastFailure ? failureText(s.lastFailure, t) : '';
  const extra = why !== '' ? `: ${why}` : s.sessions ? ` (${t.openSessions(s.sessions)})` : '';
  return escapeMrkdwn(`${STATE_ICON[s.state]} \`${s.server}\` ${t.serverState(s.state)}${revision}${extra}`);
}

function failureText(failure: NonNullable<ServerStatus['lastFailure']>, t: CommandText): string {
  const cause = failure.cause ?? '';
  if (failure.code === undefined) return cause;
  const word = t.serverFailure(FAILURE_OF[failure.code]);
  return cause === '' ? word : `${word}: ${cause}`;
}
