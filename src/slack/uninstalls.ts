// When the app leaves a workspace (app_uninstalled, or tokens_revoked naming its bot token), that workspace's
// bot token is dead: its installation is deleted, so no replica keeps calling Slack with it and a reinstall
// starts clean, and its pending questions end at once with cancel, so the server or automation waiting on
// each one hears now instead of at its timeout. Other workspaces are left alone.
//
// The end reason is 'delivery_failed': of the contract's reasons (PRODUCT.md) it is the one that says Slack
// can no longer carry the question to its people. 'withdrawn' would say the asker took it back (the server's
// notifications/cancelled, the API's DELETE) and 'call_ended' that the requester's call or connection ended;
// neither happened, and an automation reading the reason should look at the Slack side, not at itself.
//
// An Enterprise Grid org that installed the app org-wide leaves the same way, its events naming the org
// (`is_enterprise_install`): the org's installation is deleted and every question asked through it ends, in
// whichever of its workspaces (each keeps the org in its origin); a workspace's own installation is left alone.
//
// An org admin removing the app from one workspace of the org (team_access_revoked, which Slack sends the org-wide
// app itself; app_uninstalled_team is for admin apps watching other apps, with admin.apps:read) ends that
// workspace's questions asked through the org's installation and drops its link to the org; the org's
// installation and its other workspaces are left alone. Granting it again (team_access_granted) links it again.
//
// Slack delivers an event again when it got no 200 for it (at once, after 1 and after 5 minutes), so a
// departure can arrive after the workspace installed the app again. Such a departure is older than the
// installation: it is ignored, and the new installation and its questions are left alone; likewise a revocation
// older than the workspace's link (a grant since, or a request through the org's installation).
import type { Logger } from '../logger.js';
import type { EndReason, FinishResult, Outcome, Question, WorkspaceScope } from '../relay/types.js';
import type { DepartedInstallations } from './state/ports.js';
import type { OrgLinks } from './workspaces.js';

export const UNINSTALL_END_REASON: EndReason = 'delivery_failed';

/** Questions ended at once: each end waits for its card update (which fails fast for a removed workspace). */
const ENDS_AT_ONCE = 20;

/** The question store's part: finds a workspace's pending questions, and reads one. */
export interface WorkspaceQuestions {
  pendingIn(scope: WorkspaceScope): Promise<string[]>;
  get(id: string): Promise<Question | undefined>;
}

/** The relay's one way a question ends: tells the waiting server and the observers, updates the card. */
export type EndQuestion = (id: string, outcome: Outcome, reason: EndReason) => Promise<FinishResult>;

/** Where the app was removed, as Bolt's context names it (these events skip authorize: the token is gone). */
export interface Departure {
  event: 'app_uninstalled' | 'tokens_revoked';
  teamId?: string;
  enterpriseId?: string;
  isEnterpriseInstall: boolean;
  /** When the app left, as Slack stamps the event (its envelope's `event_time`), epoch seconds. */
  eventTime: number;
}

/** An org's access to some of its workspaces, granted or revoked (team_access_granted, team_access_revoked). */
export interface OrgAccessChange {
  event: 'team_access_granted' | 'team_access_revoked';
  enterpriseId: string;
  teamIds: string[];
  /** As Departure's: the envelope's event_time, epoch seconds. */
  eventTime: number;
}

export interface UninstallsOptions {
  /** The OAuth installations; absent in a deployment with one bot token (nothing to delete). */
  installations?: DepartedInstallations;
  /** Each workspace's org (org-wide installs); absent in a deployment with one bot token. */
  orgs?: Pick<OrgLinks, 'granted' | 'revoked'>;
  questions: WorkspaceQuestions;
  end: EndQuestion;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export class Uninstalls {
  constructor(private readonly options: UninstallsOptions) {}

  /**
   * The app left `departure`'s workspace (or org, for an org-wide install): forget its installation, then end
   * its pending questions; unless it installed the app again since (a late redelivery), which leaves both alone.
   */
  async gone(departure: Departure): Promise<void> {
    const { installations, logger } = this.options;
    if (!installations) return this.oneWorkspaceGone(departure);
    const { teamId, enterpriseId, isEnterpriseInstall } = departure;
    // Deleted first: the card updates of the questions ended next then fail here at once (not_installed,
    // which the outbox does not retry) instead of each calling Slack with a token it refuses.
    const query = { teamId, enterpriseId, isEnterpriseInstall };
    const deleted = await installations.deleteInstalledBefore(query, departedBy(departure));
    if (deleted === 'newer') {
      logger.info({ ...departure }, 'the app left a workspace before its current installation; ignored');
      return;
    }
    logger.info({ ...departure }, 'the app left a workspace; its installation is deleted');
    if (isEnterpriseInstall && enterpriseId !== undefined) {
      await this.endQuestions({ enterpriseId }, departure);
      return;
    }
    if (teamId === undefined) {
      logger.warn({ ...departure }, 'a departure naming neither an org nor a workspace: no questions ended');
      return;
    }
    await this.endQuestions({ teamId }, departure);
  }

  /** The org's installation was granted `change.teamIds`: each is linked to the org, found by later calls. */
  async granted(change: OrgAccessChange): Promise<void> {
    const { orgs, logger } = this.options;
    if (!orgs) return;
    // Granted when Slack stamped it: a revocation stamped later, handled first, is not undone by it.
    const grantedAt = change.eventTime * 1000;
    for (const teamId of change.teamIds) await orgs.granted(teamId, change.enterpriseId, grantedAt);
    logger.info({ ...change }, "workspaces of an org were granted the org's installation; linked");
  }

  /**
   * The org's access to `change.teamIds` was revoked: each workspace's link goes and its questions asked through
   * the org end; one linked again since (a late redelivery) is left alone.
   */
  async revoked(change: OrgAccessChange): Promise<void> {
    const { orgs, logger } = this.options;
    if (!orgs) return;
    const { enterpriseId } = change;
    for (const teamId of change.teamIds) {
      const dropped = await orgs.revoked(teamId, enterpriseId, departedBy(change));
      const where = { ...change, teamId };
      if (dropped === 'newer') {
        logger.info(where, "an org's access to a workspace was revoked before it was granted again; ignored");
        continue;
      }
      logger.info(where, "an org's access to a workspace was revoked; its link is dropped");
      await this.endQuestions({ teamId, enterpriseId }, where);
    }
  }

  /**
   * A deployment with one bot token (SLACK_BOT_TOKEN): that token no longer works, so nothing it asks can be
   * seen or answered until someone reinstalls the app and sets the new token. Said loudly, as an error.
   */
  private async oneWorkspaceGone(departure: Departure): Promise<void> {
    this.options.logger.error(
      { ...departure },
      'the app was removed from its workspace (or its bot token revoked): SLACK_BOT_TOKEN no longer works; ' +
        'pending questions end now. Reinstall the app and set its new Bot User OAuth Token.',
    );
    await this.endQuestions('every_workspace', departure);
  }

  /** `departure`: what left, as logged. */
  private async endQuestions(scope: WorkspaceScope, departure: object): Promise<void> {
    const ids = await this.options.questions.pendingIn(scope);
    const ended: Question[] = [];
    for (let at = 0; at < ids.length; at += ENDS_AT_ONCE) {
      const batch = await Promise.all(ids.slice(at, at + ENDS_AT_ONCE).map((id) => this.endOne(id)));
      for (const question of batch) if (question) ended.push(question);
    }
    this.options.logger.info(
      { ...departure, ended: ended.length, reason: UNINSTALL_END_REASON },
      "the removed workspace's pending questions ended with cancel",
    );
  }

  /** The question, when it ended with the uninstall's reason; a failure is logged once, the others still end. */
  private async endOne(id: string): Promise<Question | undefined> {
    try {
      const result = await this.options.end(id, { action: 'cancel' }, UNINSTALL_END_REASON);
      return result.won ? result.question : undefined;
    } catch (err) {
      // The end is stored before the card's update, which fails for a workspace whose token is gone (the
      // outbox does not retry it): the question may well have ended. Said once, either way.
      const question = await this.options.questions.get(id).catch(() => undefined);
      const ended = question?.state !== 'pending' && question?.reason === UNINSTALL_END_REASON;
      const msg = ended
        ? "a removed workspace's question ended; its card could not show it"
        : "a removed workspace's question could not be ended; its timeout will";
      this.options.logger.warn({ err, id }, msg);
      return ended ? question : undefined;
    }
  }
}

/**
 * The end of the second Slack stamped the departure with (event_time is whole seconds): an installation made
 * at or after it came later, one made within that second may not have, and is deleted as before.
 */
function departedBy(departure: Pick<Departure, 'eventTime'>): number {
  // An envelope without event_time (not what Slack sends) deletes as every departure did before.
  if (!Number.isFinite(departure.eventTime)) return Number.MAX_SAFE_INTEGER;
  return (departure.eventTime + 1) * 1000;
}
