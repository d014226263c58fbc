// The Web API client of a distributed app's calls (InstalledWorkspaces: cards, the outbox, App Home, lookups, and
// the listeners' own, workspace-client.ts). A rotating bot token is refreshed before its expiry by the bot's clock
// (token-refresh.ts), but Slack may refuse it token_expired earlier: its clock ahead of the bot's, or a refresh
// that failed before. Such a call refreshes the token once (unless it was refreshed meanwhile, here or on another
// replica) and is made again with the new one; a second refusal is the call's.
import { webApi, type Installation, type InstallationQuery } from '@slack/bolt';
import { slackErrorCode } from './outbox/slack-calls.js';

type AnyInstallation = Installation<'v1' | 'v2', boolean>;

/** The refresh a refused token asks for (BotTokenRefresh). */
export interface RefusedTokens {
  /** The installation once `refused` is no longer its bot token: refreshed, or as stored when already another. */
  refreshRefused(query: InstallationQuery<boolean>, refused: string): Promise<AnyInstallation>;
}

/** The bot token to call with instead of `refused`; undefined when there is none. */
type Renew = (refused: string) => Promise<string | undefined>;

export class RenewingClient extends webApi.WebClient {
  constructor(
    token: string,
    options: webApi.WebClientOptions,
    private readonly renew: Renew,
  ) {
    super(token, options);
  }

  override async apiCall(
    method: string,
    options: Record<string, unknown> = {},
  ): Promise<webApi.WebAPICallResult> {
    try {
      return await super.apiCall(method, options);
    } catch (error) {
      const refused = this.token;
      // files.uploadV2 is made of calls that each pass here (made again whole, it could upload twice); a call
      // given a token of its own is not this installation's.
      const renewable = method !== 'files.uploadV2' && options.token === undefined && refused !== undefined;
      if (!renewable || slackErrorCode(error) !== 'token_expired') throw error;
      const token = await this.renew(refused);
      if (token === undefined || token === refused) throw error;
      return super.apiCall(method, { ...options, token });
    }
  }
}

/** How workspace `teamId`'s calls through `installation` (its own, or its org's org-wide one) renew its token. */
export function renewalOf(tokens: RefusedTokens, installation: AnyInstallation, teamId: string): Renew {
  const org = installation.isEnterpriseInstall ? installation.enterprise?.id : undefined;
  const query: InstallationQuery<boolean> =
    org === undefined
      ? { teamId, enterpriseId: undefined, isEnterpriseInstall: false }
      : { teamId, enterpriseId: org, isEnterpriseInstall: true };
  return async (refused) => (await tokens.refreshRefused(query, refused)).bot?.token;
}
