// An org-wide installation (Enterprise Grid) granted or refused some of its org's workspaces: an org admin added
// the app to them (team_access_granted) or removed it (team_access_revoked). The org's token stays; the events
// name the org (the envelope's enterprise_id, its authorization's) and the workspaces (`team_ids`).
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import type { OrgAccessChange } from '../../uninstalls.js';

type TeamAccessArgs<E extends OrgAccessChange['event']> = SlackEventMiddlewareArgs<E> & AllMiddlewareArgs;

export async function teamAccessGranted(
  args: TeamAccessArgs<'team_access_granted'>,
  deps: Pick<ListenerDeps, 'uninstalls'>,
): Promise<void> {
  const change = changeOf(args);
  if (change) await deps.uninstalls.granted(change);
}

export async function teamAccessRevoked(
  args: TeamAccessArgs<'team_access_revoked'>,
  deps: Pick<ListenerDeps, 'uninstalls'>,
): Promise<void> {
  const change = changeOf(args);
  if (change) await deps.uninstalls.revoked(change);
}

/** The org and its workspaces; undefined for an event naming no org (not what Slack sends an org-wide app). */
function changeOf({
  event,
  body,
  context,
}: TeamAccessArgs<OrgAccessChange['event']>): OrgAccessChange | undefined {
  const enterpriseId = context.enterpriseId ?? body.enterprise_id;
  if (!enterpriseId) return undefined;
  return { event: event.type, enterpriseId, teamIds: event.team_ids, eventTime: body.event_time };
}
