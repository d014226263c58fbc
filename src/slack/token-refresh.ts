// A distributed app's bot tokens with Slack's token rotation on (https://docs.slack.dev/authentication/using-
// token-rotation): each installation's bot token expires 12 h after Slack issued it and comes with a refresh
// token, which oauth.v2.access (grant_type=refresh_token) exchanges for a new pair. Every Web API call path reads
// installations through here (Bolt's authorize and InstalledWorkspaces alike), so a token within
// REFRESH_AHEAD_MS of its expiry is refreshed before it is used, whoever uses it.
//
// Slack revokes a refresh token once it was used (after a short grace period) and keeps at most two live tokens
// per installation, so replicas must not refresh one installation at once: the second would spend a revoked
// refresh token, or revoke the token the others use. So one refresh per installation at a time across replicas
// (a claim in Redis beside the installation, read again under it) and, on each replica, one per installation for
// all its callers. A replica that finds the refresh claimed goes on with the token it read while that still works,
// and otherwise reads again until the holder's tokens are saved. The answer is saved only over the refresh token
// it spent, so a reinstall, an uninstall or a refresh under a claim that lapsed is never overwritten.
//
// A token Slack refuses token_expired while the bot's clock gives it longer (the clocks disagree, or an earlier
// refresh failed) is refreshed the same way when its caller asks (`refreshRefused`, renewing-client.ts).
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Installation, InstallationQuery, InstallationStore, Logger as BoltLogger } from '@slack/bolt';
import type { RefreshedInstallations } from './state/ports.js';

type AnyInstallation = Installation<'v1' | 'v2', boolean>;
type Bot = NonNullable<AnyInstallation['bot']>;
/** An installation whose bot token rotates: it has a refresh token and an expiry. */
type Rotating = AnyInstallation & { bot: Bot & { refreshToken: string; expiresAt: number } };

/**
 * A bot token this close to its expiry (or past it) is refreshed before it is used, ms: 2 h, as @slack/oauth's
 * authorize and the Python SDK's TokenRotator do, so a token handed to a caller outlives any call it makes.
 */
const REFRESH_AHEAD_MS = 2 * 3_600_000;

/**
 * How long a refresh holds its installation's claim if it never lets go (its replica died), ms: beyond the Web API
 * client's 10 s timeout of the oauth.v2.access call and the Redis writes around it.
 */
export const REFRESH_CLAIM_MS = 30_000;

/**
 * How long a caller whose token already expired waits for another replica's refresh before it fails refresh_busy,
 * ms: long enough for a claim left to lapse (REFRESH_CLAIM_MS) to be taken over.
 */
const REFRESH_WAIT_MS = REFRESH_CLAIM_MS + 5_000;

/** Between reads of the installation while another replica refreshes it, ms. */
const REREAD_EVERY_MS = 50;

/**
 * What a refresh is for: a `due` installation is refreshed; an `unusable` one is not answered while another
 * replica refreshes it, but waited for.
 */
interface Staleness {
  due(installation: AnyInstallation): installation is Rotating;
  unusable(installation: AnyInstallation): boolean;
}

export type TokenRefreshCode = 'refresh_busy' | 'refresh_answer_invalid';

export class TokenRefreshError extends Error {
  override readonly name = 'TokenRefreshError';
  constructor(
    readonly code: TokenRefreshCode,
    message: string,
  ) {
    super(message);
  }
}

/** What the refresh uses of oauth.v2.access's answer. */
export interface RefreshAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
}

export interface TokenRefreshDeps {
  installations: Pick<InstallationStore, 'fetchInstallation'> & RefreshedInstallations;
  /**
   * oauth.v2.access with grant_type=refresh_token and the app's client id and secret. A refusal rejects with
   * the Web API client's error (its Slack code, e.g. invalid_refresh_token), which callers classify as any call's.
   */
  exchange(refreshToken: string): Promise<RefreshAnswer>;
  /**
   * The wall clock, epoch ms (the bot's injected clock's `now`): installations keep `expiresAt` in epoch seconds,
   * and @slack/oauth stamps an install's by the system clock.
   */
  now(): number;
  logger: Pick<BoltLogger, 'info' | 'error'>;
}

export class BotTokenRefresh implements Pick<InstallationStore, 'fetchInstallation'> {
  /** This replica's name in the claims it holds. */
  private readonly holder = randomBytes(12).toString('base64url');
  /** The refresh under way per installation on this replica: its other callers wait for the same one. */
  private readonly refreshing = new Map<string, Promise<AnyInstallation>>();
  /** By the bot's clock: due within REFRESH_AHEAD_MS of its expiry, unusable past it. */
  private readonly byClock: Staleness = {
    due: (installation): installation is Rotating => this.due(installation),
    unusable: (installation) => this.expired(installation),
  };

  constructor(private readonly deps: TokenRefreshDeps) {}

  /** The installation `query` names, its bot token refreshed first when it expires within REFRESH_AHEAD_MS. */
  async fetchInstallation(query: InstallationQuery<boolean>): Promise<AnyInstallation> {
    const read = await this.deps.installations.fetchInstallation(query);
    if (!this.due(read)) return read;
    return this.shared(query, read, this.byClock);
  }

  /**
   * The installation after Slack refused its bot token `refused` token_expired: refreshed once, unless it holds
   * another token by now (refreshed meanwhile, on this replica or another). Without token rotation, as stored.
   */
  async refreshRefused(query: InstallationQuery<boolean>, refused: string): Promise<AnyInstallation> {
    const spent = (installation: AnyInstallation): installation is Rotating =>
      this.due(installation) || (rotating(installation) && installation.bot.token === refused);
    const staleness = { due: spent, unusable: spent };
    const read = await this.deps.installations.fetchInstallation(query);
    if (!spent(read)) return read;
    const once = await this.shared(query, read, staleness);
    // Joined a refresh by the clock that left the token to another replica's refresh: wait for that one.
    return spent(once) ? this.shared(query, once, staleness) : once;
  }

  /** The refresh under way of the installation on this replica, else a new one. */
  private shared(
    query: InstallationQuery<boolean>,
    read: Rotating,
    staleness: Staleness,
  ): Promise<AnyInstallation> {
    const name = nameOf(query);
    let refresh = this.refreshing.get(name);
    if (refresh === undefined) {
      refresh = this.refresh(query, read, staleness).finally(() => this.refreshing.delete(name));
      this.refreshing.set(name, refresh);
    }
    return refresh;
  }

  /** Refreshes under the installation's claim; while another replica holds it, its answer is waited for. */
  private async refresh(
    query: InstallationQuery<boolean>,
    read: Rotating,
    staleness: Staleness,
  ): Promise<AnyInstallation> {
    const giveUpAt = this.deps.now() + REFRESH_WAIT_MS;
    let current: AnyInstallation = read;
    while (!(await this.deps.installations.claimRefresh(query, this.holder, REFRESH_CLAIM_MS))) {
      if (!staleness.unusable(current)) return current;
      if (this.deps.now() >= giveUpAt) {
        throw new TokenRefreshError(
          'refresh_busy',
          `another replica held the bot token refresh of ${nameOf(query)} over ${REFRESH_WAIT_MS / 1000} s`,
        );
      }
      await sleep(REREAD_EVERY_MS);
      current = await this.deps.installations.fetchInstallation(query);
      if (!staleness.due(current)) return current;
    }
    try {
      return await this.refreshClaimed(query, staleness);
    } finally {
      // A release Redis fails is no failure of the refresh: the claim lapses by itself after REFRESH_CLAIM_MS.
      await this.deps.installations.releaseRefresh(query, this.holder).catch(() => undefined);
    }
  }

  /** Under the claim: reads again (another replica may have refreshed meanwhile), spends, saves. */
  private async refreshClaimed(
    query: InstallationQuery<boolean>,
    staleness: Staleness,
  ): Promise<AnyInstallation> {
    const current = await this.deps.installations.fetchInstallation(query);
    if (!staleness.due(current)) return current;
    const spent = current.bot.refreshToken;
    let answer: RefreshAnswer;
    try {
      answer = await this.deps.exchange(spent);
    } catch (error) {
      // Refused because another replica spent it under a claim that had lapsed: its tokens are saved by now.
      const stored = await this.deps.installations.fetchInstallation(query);
      if (stored.bot?.refreshToken !== spent) return stored;
      this.deps.logger.error(`Slack refused the bot token refresh of ${nameOf(query)}: ${String(error)}`);
      throw error;
    }
    const refreshed = withBotTokens(current, answer, this.deps.now(), nameOf(query));
    if (await this.deps.installations.storeRefreshed(refreshed, spent)) {
      this.deps.logger.info(`refreshed the bot token of ${nameOf(query)}`);
      return refreshed;
    }
    // Reinstalled or uninstalled meanwhile: what is stored now holds (none: fetchInstallation's not_installed).
    return this.deps.installations.fetchInstallation(query);
  }

  /** Whether `installation` has a rotating bot token that expires within REFRESH_AHEAD_MS. */
  private due(installation: AnyInstallation): installation is Rotating {
    return rotating(installation) && installation.bot.expiresAt * 1000 - this.deps.now() <= REFRESH_AHEAD_MS;
  }

  private expired(installation: AnyInstallation): boolean {
    return rotating(installation) && installation.bot.expiresAt * 1000 <= this.deps.now();
  }
}

function rotating(installation: AnyInstallation): installation is Rotating {
  const bot = installation.bot;
  return typeof bot?.refreshToken === 'string' && typeof bot.expiresAt === 'number';
}

/** The installation with the answer's bot token, refresh token and expiry (epoch seconds, as @slack/oauth keeps it). */
function withBotTokens(current: Rotating, answer: RefreshAnswer, now: number, name: string): Rotating {
  const { access_token: token, refresh_token: refreshToken, expires_in: expiresIn } = answer;
  if (!token || !refreshToken || typeof expiresIn !== 'number') {
    throw new TokenRefreshError(
      'refresh_answer_invalid',
      `oauth.v2.access answered the bot token refresh of ${name} without access_token, refresh_token and expires_in`,
    );
  }
  const expiresAt = Math.floor(now / 1000) + expiresIn;
  return { ...current, bot: { ...current.bot, token, refreshToken, expiresAt } };
}

/** How logs and errors name an installation: its org for an org-wide install, else its workspace. */
function nameOf(query: InstallationQuery<boolean>): string {
  return query.isEnterpriseInstall ? `org ${query.enterpriseId}` : `workspace ${query.teamId}`;
}
