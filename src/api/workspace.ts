// The Slack workspace of an API question or call. A bot installed in several workspaces (OAuth distribution)
// needs it every time: cards and messages go out with that workspace's bot token, and a person's grant to a
// server they sign in to is kept per workspace and person. A bot that serves one workspace ignores `team`
// (its people's grants and token are the same whatever workspace id a request names).
import { ApiError } from './errors.js';

/**
 * The Enterprise Grid org whose org-wide installation serves workspace `teamId` (it has none of its own), for the
 * origin of what an API request asks there: the org leaving the app ends it. Absent: no workspace is served so.
 */
export type ServingOrg = (teamId: string) => Promise<string | undefined>;

/** `workspace` with the org that serves it, when one does. */
export async function withServingOrg<T extends { teamId?: string }>(
  workspace: T,
  servingOrg: ServingOrg | undefined,
): Promise<T & { enterpriseId?: string }> {
  const org = workspace.teamId === undefined ? undefined : await servingOrg?.(workspace.teamId);
  return org === undefined ? workspace : { ...workspace, enterpriseId: org };
}

/**
 * withServingOrg for a call that runs whether or not the org is known: when the lookup fails (Redis, or Slack's
 * auth.teams.list), that is logged with `fields` and `workspace` goes on as it is.
 */
export function withServingOrgOrWithout<T extends { teamId?: string }>(
  workspace: T,
  deps: { servingOrg?: ServingOrg; logger: { warn(obj: object, msg: string): void } },
  fields: object,
): Promise<T & { enterpriseId?: string }> {
  return withServingOrg(workspace, deps.servingOrg).catch((err: unknown) => {
    deps.logger.warn({ err, ...fields }, "the org serving a call's workspace is not known");
    return workspace;
  });
}

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
