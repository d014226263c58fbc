// The Slack workspace of an API question or call. A bot installed in several workspaces (OAuth distribution)
// needs it every time: cards and messages go out with that workspace's bot token, and a person's grant to a
// server they sign in to is kept per workspace and person. A bot that serves one workspace ignores `team`
// (its people's grants and token are the same whatever workspace id a request names).
import { ApiError } from './errors.js';

/** Origin's `teamId` for a request naming `team` at `path` (such as /as/team); invalid_request when missing. */
export function workspaceOf(
  severalWorkspaces: boolean,
  team: string | undefined,
  path: string,
): { teamId?: string } {
  if (!severalWorkspaces) return {};
  if (team === undefined)
    throw new ApiError(
      'invalid_request',
      `${path}: this bot is installed in several Slack workspaces: name the workspace (its team id, T…) the people are in`,
    );
  return { teamId: team };
}
