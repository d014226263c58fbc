// The workspaces an org-wide installation (Enterprise Grid) is granted, as Slack documents them: installing the
// app for the org adds it to none of the org's workspaces; an org admin then adds it to some (Slack sends the app
// team_access_granted) or removes it from some (team_access_revoked; the driver's `teamAccess` plays both), and
// auth.teams.list with the org's token lists the workspaces granted now
// (https://docs.slack.dev/reference/methods/auth.teams.list): `limit` 1-1000 (default 100), `cursor` for the
// next page, `teams` as {id, name}. A workspace's own token lists that workspace.
import type { Obj } from './blockkit-check.js';
import { StandinError } from './calls.js';
import { type ApiBody, fail, nonEmpty } from './methods-chat.js';
import type { StandinWorkspace } from './oauth.js';
import type { Store } from './store.js';

/** auth.teams.list's default and largest page (Slack's docs). */
const LIMIT_DEFAULT = 100;
const LIMIT_MAX = 1000;

export class OrgGrants {
  private readonly granted = new Map<string, Set<string>>();

  constructor(private readonly workspaces: Map<string, StandinWorkspace>) {}

  /** An org admin adds the app to `teamIds`, each a workspace of org `enterpriseId` (else invalid_team). */
  grant(enterpriseId: string, teamIds: readonly string[]): void {
    for (const teamId of teamIds) {
      if (this.workspaces.get(teamId)?.enterpriseId !== enterpriseId)
        throw new StandinError('invalid_team', `${teamId} is not a workspace of org ${enterpriseId}`);
    }
    const granted = this.granted.get(enterpriseId) ?? new Set<string>();
    for (const teamId of teamIds) granted.add(teamId);
    this.granted.set(enterpriseId, granted);
  }

  /** An org admin removes the app from `teamIds`. */
  revoke(enterpriseId: string, teamIds: readonly string[]): void {
    for (const teamId of teamIds) this.granted.get(enterpriseId)?.delete(teamId);
  }

  /** auth.teams.list, answered as the caller's token (store.identity). */
  readonly list = (args: Obj, store: Store): ApiBody => {
    const limit = args.limit === undefined ? LIMIT_DEFAULT : Number(args.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX) return fail('invalid_limit');
    const cursor = nonEmpty(args.cursor);
    const from = cursor === undefined ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Number.isInteger(from) || from < 0) return fail('invalid_cursor');
    const { teamId, enterpriseId } = store.identity;
    const ids = enterpriseId === undefined ? [teamId] : [...(this.granted.get(enterpriseId) ?? [])];
    const page = ids.slice(from, from + limit);
    const next = from + limit < ids.length ? Buffer.from(String(from + limit)).toString('base64url') : '';
    return {
      ok: true,
      teams: page.map((id) => ({ id, name: this.workspaces.get(id)?.name ?? id })),
      response_metadata: { next_cursor: next },
    };
  };
}
