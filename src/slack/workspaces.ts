// Which Web API client to use outside a Bolt listener (cards, the outbox, locales, reminders, App Home): the one
// of the question's workspace (`origin.teamId`). Inside listeners Bolt's `client` already carries the right
// token. One workspace: the bot-token client. Distributed (OAuth): each workspace's bot token from its
// installation, one client per token; a workspace of an Enterprise Grid org that has no installation of its own
// uses its org's org-wide installation (the org's token), found through the link every request through that
// installation notes (`OrgLinks`).
import type { webApi, Installation, InstallationStore } from '@slack/bolt';
import { StoreError } from '../redis/index.js';
import { RelayError } from '../relay/errors.js';
import { RenewingClient, renewalOf, type RefusedTokens } from './renewing-client.js';
import type { WorkspaceOrgs } from './state/ports.js';

export interface SlackClients {
  /** The client for workspace `teamId`; without one, the single workspace's (distributed apps need it). */
  for(teamId?: string): Promise<webApi.WebClient>;
}

/** A deployment that serves the one workspace whose bot token it was given. */
export function singleWorkspace(client: webApi.WebClient): SlackClients {
  return { for: () => Promise.resolve(client) };
}

/**
 * Each workspace's org, as the requests through an org-wide installation name it: noted in Redis once per
 * workspace and replica (a workspace stays in its org), read once per workspace and replica.
 */
export class OrgLinks {
  private readonly known = new Map<string, string>();

  constructor(private readonly orgs: WorkspaceOrgs) {}

  /** Notes that org `enterpriseId`'s installation served a request from workspace `teamId`. */
  async noted(teamId: string, enterpriseId: string): Promise<void> {
    if (this.known.get(teamId) === enterpriseId) return;
    await this.orgs.linkWorkspace(teamId, enterpriseId);
    this.known.set(teamId, enterpriseId);
  }

  /** The org whose installation serves `teamId`, when one did. */
  async orgOf(teamId: string): Promise<string | undefined> {
    const known = this.known.get(teamId);
    if (known !== undefined) return known;
    const org = await this.orgs.orgOf(teamId);
    if (org !== undefined) this.known.set(teamId, org);
    return org;
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
    const installation = await this.installationOf(teamId);
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
