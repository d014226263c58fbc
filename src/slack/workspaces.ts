// Which Web API client to use outside a Bolt listener (cards, the outbox, locales, reminders, App Home): the one
// of the question's workspace (`origin.teamId`). One workspace: the bot-token client (Bolt's, inside listeners
// too). Distributed (OAuth): each workspace's bot token from its installation, one client per workspace, also
// the one its listeners are given (workspace-client.ts); a workspace of an Enterprise Grid org that has no
// installation of its own uses its org's org-wide installation (the org's token), found through the link every
// request through that installation notes, team_access_granted grants or the org's auth.teams.list lists
// (`OrgLinks`).
import type { webApi, Installation, InstallationStore } from '@slack/bolt';
import { StoreError } from '../redis/index.js';
import { RelayError } from '../relay/errors.js';
import { RenewingClient, renewalOf, type RefusedTokens } from './renewing-client.js';
import type { DepartureDelete, WorkspaceOrgs } from './state/ports.js';

export interface SlackClients {
  /** The client for workspace `teamId`; without one, the single workspace's (distributed apps need it). */
  for(teamId?: string): Promise<webApi.WebClient>;
  /**
   * The Enterprise Grid org whose org-wide installation serves `teamId` (it has none of its own); undefined for
   * a workspace's own installation, none at all, or a deployment that serves one workspace.
   */
  servingOrg?(teamId: string): Promise<string | undefined>;
}

/** A deployment that serves the one workspace whose bot token it was given. */
export function singleWorkspace(client: webApi.WebClient): SlackClients {
  return { for: () => Promise.resolve(client) };
}

/** A link read is trusted this long on this replica (ms): an org's access revoked elsewhere is seen within it. */
const LINK_TRUSTED_MS = 60_000;
/** This replica asks the orgs for their workspaces at most this often (ms; auth.teams.list is Tier 2, 20/min). */
const ASK_EVERY_MS = 5 * 60_000;
/** At most this many orgs are asked in one round. */
const ORGS_ASKED_MAX = 100;

/** How a workspace's org is learnt without a request from it: each org-wide installation's granted workspaces. */
export interface OrgGrants {
  /** The workspaces org `enterpriseId`'s installation is granted (auth.teams.list with the org's token). */
  grantedTo(enterpriseId: string): Promise<string[]>;
  logger: { warn(message: string): void };
}

/**
 * Each workspace's org, as the requests through an org-wide installation name it, team_access_granted grants it
 * or (`grants`) the org's installation lists it: noted in Redis once per workspace and replica, a link read
 * trusted for a minute. A workspace linked to no org is looked for by asking every org installation once (at most
 * once per 5 minutes on this replica, one round at a time; a failed org is logged and the others still answer).
 */
export class OrgLinks {
  private readonly known = new Map<string, { org: string; until: number }>();
  private round: Promise<void> | undefined;
  private nextRoundAt = 0;

  /** `now`: epoch ms, the links' trust and the rounds' spacing. */
  constructor(
    private readonly orgs: WorkspaceOrgs,
    private readonly grants?: OrgGrants,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Notes that org `enterpriseId`'s installation served workspace `teamId`: written unless trusted here; never
   * over another org's link or this org's revocation (org-links.ts), which this replica then no longer trusts.
   */
  async noted(teamId: string, enterpriseId: string): Promise<void> {
    const known = this.known.get(teamId);
    if (known?.org === enterpriseId && known.until > this.now()) return;
    this.linked(teamId, enterpriseId, await this.orgs.linkWorkspace(teamId, enterpriseId));
  }

  /**
   * Org `enterpriseId`'s installation was granted workspace `teamId` at `grantedAt` (epoch ms): written whatever
   * this replica trusts (the link may have been dropped by a revocation another replica handled), unless a
   * revocation since or a link as new is kept.
   */
  async granted(teamId: string, enterpriseId: string, grantedAt: number): Promise<void> {
    this.linked(teamId, enterpriseId, await this.orgs.linkWorkspace(teamId, enterpriseId, grantedAt));
  }

  /** The org's access to `teamId` was revoked at `departedBy` (epoch ms): its link goes, unless newer. */
  async revoked(teamId: string, enterpriseId: string, departedBy: number): Promise<DepartureDelete> {
    if (this.known.get(teamId)?.org === enterpriseId) this.known.delete(teamId);
    return this.orgs.unlinkWorkspace(teamId, enterpriseId, departedBy);
  }

  /** The org whose installation serves `teamId`, when one does. */
  async orgOf(teamId: string): Promise<string | undefined> {
    const known = this.known.get(teamId);
    if (known !== undefined && known.until > this.now()) return known.org;
    const org = (await this.orgs.orgOf(teamId)) ?? (await this.askedFor(teamId));
    if (org === undefined) this.known.delete(teamId);
    else this.trust(teamId, org);
    return org;
  }

  /** Trusts the link written; one refused is read from Redis next time. */
  private linked(teamId: string, org: string, written: boolean): void {
    if (written) this.trust(teamId, org);
    else this.known.delete(teamId);
  }

  private trust(teamId: string, org: string): void {
    this.known.set(teamId, { org, until: this.now() + LINK_TRUSTED_MS });
  }

  /** `teamId`'s org once every org was asked for its workspaces; undefined without asking within 5 minutes. */
  private async askedFor(teamId: string): Promise<string | undefined> {
    if (this.grants === undefined) return undefined;
    if (this.round === undefined) {
      if (this.now() < this.nextRoundAt) return undefined;
      this.nextRoundAt = this.now() + ASK_EVERY_MS;
      this.round = this.askEveryOrg(this.grants).finally(() => (this.round = undefined));
    }
    await this.round;
    return this.orgs.orgOf(teamId);
  }

  /** Links every workspace each org installation is granted; a failure is logged, never thrown. */
  private async askEveryOrg(grants: OrgGrants): Promise<void> {
    const orgs = await this.orgs.orgInstallations().catch((error: unknown) => {
      grants.logger.warn(`the org-wide installations could not be listed: ${String(error)}`);
      return [];
    });
    const asked = orgs.slice(0, ORGS_ASKED_MAX).map(async (org) => {
      try {
        for (const teamId of await grants.grantedTo(org)) await this.orgs.linkWorkspace(teamId, org);
      } catch (error) {
        grants.logger.warn(`org ${org}'s workspaces could not be listed: ${String(error)}`);
      }
    });
    await Promise.all(asked);
  }
}

/**
 * A distributed app: each workspace's bot token from its installation, fetched per call (any replica) through
 * `installations`, which refreshes a rotating token first (token-refresh.ts). One client per workspace, made again
 * when its token changes (a reinstall, a refresh): the old client, and its token, are let go.
 */
export class InstalledWorkspaces implements SlackClients {
  private readonly byTeam = new Map<string, { token: string; client: webApi.WebClient }>();

  /** `orgs`: the workspaces served by an org-wide installation; without it, workspace installs only. */
  constructor(
    private readonly installations: Pick<InstallationStore, 'fetchInstallation'> & RefusedTokens,
    private readonly clientOptions: webApi.WebClientOptions,
    private readonly orgs?: OrgLinks,
  ) {}

  async for(teamId?: string): Promise<webApi.WebClient> {
    if (!teamId) {
      throw new RelayError(
        'no_workspace',
        'a distributed app needs the workspace (team id) of each Web API call',
      );
    }
    return this.clientOf(teamId, await this.installationOf(teamId));
  }

  /**
   * Workspace `teamId`'s client for `installation` (its own, or its org's) just read: the one held while its bot
   * token is the same. Bolt's authorize hands it to listeners (workspace-client.ts).
   */
  clientOf(teamId: string, installation: Installation<'v1' | 'v2', boolean>): webApi.WebClient {
    const token = installation.bot?.token;
    if (!token)
      throw new RelayError('no_bot_token', `the installation of workspace ${teamId} has no bot token`);
    const held = this.byTeam.get(teamId);
    if (held?.token === token) return held.client;
    // `teamId` names the workspace on each call: an org's token needs it (team_id) for workspace-level methods.
    // A call Slack refuses token_expired refreshes the token once and is made again (renewing-client.ts).
    const renew = renewalOf(this.installations, installation, teamId);
    const client = new RenewingClient(token, { ...this.clientOptions, teamId }, renew);
    this.byTeam.set(teamId, { token, client });
    return client;
  }

  async servingOrg(teamId: string): Promise<string | undefined> {
    try {
      const installation = await this.installationOf(teamId);
      return installation.isEnterpriseInstall === true ? installation.enterprise?.id : undefined;
    } catch (error) {
      if (isNotInstalled(error)) return undefined;
      throw error;
    }
  }

  /** The workspace's own installation, else its org's; the workspace's not_installed when neither exists. */
  private async installationOf(teamId: string): Promise<Installation<'v1' | 'v2', boolean>> {
    const workspace = { teamId, enterpriseId: undefined, isEnterpriseInstall: false };
    try {
      return await this.installations.fetchInstallation(workspace);
    } catch (error) {
      const enterpriseId = isNotInstalled(error) ? await this.orgs?.orgOf(teamId) : undefined;
      if (enterpriseId === undefined) throw error;
      return this.installations.fetchInstallation({ teamId, enterpriseId, isEnterpriseInstall: true });
    }
  }
}

const isNotInstalled = (error: unknown): boolean =>
  error instanceof StoreError && error.code === 'not_installed';
