// Which Web API client to use outside a Bolt listener (cards, the outbox, locales, reminders, App Home): the one
// of the question's workspace (`origin.teamId`). Inside listeners Bolt's `client` already carries the right
// token. One workspace: the bot-token client. Distributed (OAuth): each workspace's bot token from its
// installation, one client per token.
import { webApi, type InstallationStore } from '@slack/bolt';
import { RelayError } from '../relay/errors.js';

export interface SlackClients {
  /** The client for workspace `teamId`; without one, the single workspace's (distributed apps need it). */
  for(teamId?: string): Promise<webApi.WebClient>;
}

/** A deployment that serves the one workspace whose bot token it was given. */
export function singleWorkspace(client: webApi.WebClient): SlackClients {
  return { for: () => Promise.resolve(client) };
}

/**
 * A distributed app: each workspace's bot token from its installation, fetched per call (any replica) through
 * `installations`, which refreshes a rotating token first (token-refresh.ts). One client per workspace, made again
 * when its token changes (a reinstall, a refresh): the old client, and its token, are let go.
 */
export class InstalledWorkspaces implements SlackClients {
  private readonly byTeam = new Map<string, { token: string; client: webApi.WebClient }>();

  constructor(
    private readonly installations: Pick<InstallationStore, 'fetchInstallation'>,
    private readonly clientOptions: webApi.WebClientOptions,
  ) {}

  async for(teamId?: string): Promise<webApi.WebClient> {
    if (!teamId) {
      throw new RelayError(
        'no_workspace',
        'a distributed app needs the workspace (team id) of each Web API call',
      );
    }
    const installation = await this.installations.fetchInstallation({
      teamId,
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    const token = installation.bot?.token;
    if (!token)
      throw new RelayError('no_bot_token', `the installation of workspace ${teamId} has no bot token`);
    const held = this.byTeam.get(teamId);
    if (held?.token === token) return held.client;
    const client = new webApi.WebClient(token, { ...this.clientOptions, teamId });
    this.byTeam.set(teamId, { token, client });
    return client;
  }
}
