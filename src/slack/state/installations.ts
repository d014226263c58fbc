// Bolt's InstallationStore in Redis: one JSON record per workspace (or per Enterprise Grid org for org-wide
// installs), written by the OAuth redirect handler and read by `authorize` on every request, on any replica.
// Each record also keeps when it was installed (`installedAt`), so that an app_uninstalled or tokens_revoked
// Slack delivers again after a reinstall, describing the installation before, does not delete the new one.
//
// With token rotation, a refreshed bot token and its refresh token are saved in the same record, as the install
// saved the first ones (plain JSON, like the bot token; the record lives only under the deployment's prefix), and
// only over the refresh token the refresh spent; the refresh's claim (one replica at a time) sits beside it.
//
// Keys: `installation` and `installationRefresh` in src/redis/layout.ts (kind `team` for a workspace install,
// `enterprise` for an org).
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { RedisClient } from '../../redis/index.js';
import { StoreError, commandError, keys, type Keys } from '../../redis/index.js';
import type { DepartedInstallations, DepartureDelete, RefreshedInstallations } from './ports.js';

type AnyInstallation = Installation<'v1' | 'v2', boolean>;

/**
 * Deletes KEYS[1] unless its record says it was installed at or after ARGV[1] (epoch ms). One script, so a
 * reinstall saved between a read and a delete is never the one deleted. A record from before `installedAt`
 * was kept (or one that does not parse) is deleted, as every departure deleted it before.
 */
const DELETE_UNLESS_NEWER_LUA = `
local text = redis.call('GET', KEYS[1])
if not text then return 'none' end
local ok, record = pcall(cjson.decode, text)
if ok and type(record) == 'table' and type(record.installedAt) == 'number'
  and record.installedAt >= tonumber(ARGV[1]) then
  return 'newer'
end
redis.call('DEL', KEYS[1])
return 'deleted'
`;

/**
 * Sets KEYS[1] to ARGV[2] only while its record's bot refresh token is ARGV[1]: a refresh's answer never lands
 * over a reinstall, an uninstall (no record) or another replica's refresh. 1 when set.
 */
const SET_IF_REFRESH_TOKEN_LUA = `
local text = redis.call('GET', KEYS[1])
if not text then return 0 end
local ok, record = pcall(cjson.decode, text)
if not ok or type(record) ~= 'table' or type(record.bot) ~= 'table' or record.bot.refreshToken ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`;

/** Deletes KEYS[1] only while it holds ARGV[1]: a claim that lapsed and was taken over is left to its holder. */
const DELETE_IF_HELD_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export class RedisInstallationStore
  implements InstallationStore, DepartedInstallations, RefreshedInstallations
{
  private readonly keys: Keys;

  /**
   * `now`: the wall clock, epoch ms. Not the bot's injected clock: it is compared with the event_time Slack
   * stamps on a departure.
   */
  constructor(
    private readonly redis: RedisClient,
    prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = keys(prefix);
  }

  /**
   * Saves the installation with its `installedAt`: now for a new one (the OAuth redirect), kept for one that
   * has it (Bolt saves a fetched installation again when it rotates its tokens).
   */
  async storeInstallation(installation: AnyInstallation): Promise<void> {
    const key = this.recordKey(installation);
    const installedAt =
      'installedAt' in installation && typeof installation.installedAt === 'number'
        ? installation.installedAt
        : this.now();
    try {
      await this.redis.set(key, JSON.stringify({ ...installation, installedAt }));
    } catch (cause) {
      throw commandError('storing an installation', cause);
    }
  }

  /** The installation for the query's org-wide install or workspace; rejects when there is none. */
  async fetchInstallation(query: InstallationQuery<boolean>): Promise<AnyInstallation> {
    let text: string | null;
    try {
      text = await this.redis.get(this.keyOf(query));
    } catch (cause) {
      throw commandError('fetching an installation', cause);
    }
    if (text === null) {
      const where = query.isEnterpriseInstall ? `org ${query.enterpriseId}` : `workspace ${query.teamId}`;
      throw new StoreError('not_installed', `the app is not installed in ${where}`);
    }
    return JSON.parse(text) as AnyInstallation;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    try {
      await this.redis.del(this.keyOf(query));
    } catch (cause) {
      throw commandError('deleting an installation', cause);
    }
  }

  async claimRefresh(query: InstallationQuery<boolean>, holder: string, ms: number): Promise<boolean> {
    try {
      return (await this.redis.set(this.refreshKeyOf(query), holder, 'PX', ms, 'NX')) !== null;
    } catch (cause) {
      throw commandError('claiming a token refresh', cause);
    }
  }

  async releaseRefresh(query: InstallationQuery<boolean>, holder: string): Promise<void> {
    try {
      await this.redis.eval(DELETE_IF_HELD_LUA, 1, this.refreshKeyOf(query), holder);
    } catch (cause) {
      throw commandError('releasing a token refresh', cause);
    }
  }

  async storeRefreshed(installation: AnyInstallation, spent: string): Promise<boolean> {
    const key = this.recordKey(installation);
    try {
      return (
        (await this.redis.eval(SET_IF_REFRESH_TOKEN_LUA, 1, key, spent, JSON.stringify(installation))) === 1
      );
    } catch (cause) {
      throw commandError('storing a refreshed installation', cause);
    }
  }

  /** The departure's delete: the installation is kept when it was installed at or after `departedBy`. */
  async deleteInstalledBefore(
    query: InstallationQuery<boolean>,
    departedBy: number,
  ): Promise<DepartureDelete> {
    try {
      const result = await this.redis.eval(DELETE_UNLESS_NEWER_LUA, 1, this.keyOf(query), departedBy);
      return result === 'newer' ? 'newer' : result === 'deleted' ? 'deleted' : 'none';
    } catch (cause) {
      throw commandError('deleting an installation', cause);
    }
  }

  private keyOf(query: InstallationQuery<boolean>): string {
    return query.isEnterpriseInstall && query.enterpriseId
      ? this.key('enterprise', query.enterpriseId)
      : this.key('team', query.teamId);
  }

  private recordKey(installation: AnyInstallation): string {
    return installation.isEnterpriseInstall
      ? this.key('enterprise', installation.enterprise?.id)
      : this.key('team', installation.team?.id);
  }

  private refreshKeyOf(query: InstallationQuery<boolean>): string {
    if (query.isEnterpriseInstall && query.enterpriseId)
      return this.keys.installationRefresh('enterprise', query.enterpriseId);
    if (!query.teamId) throw new StoreError('bad_record', 'an installation without its team id');
    return this.keys.installationRefresh('team', query.teamId);
  }

  private key(kind: 'team' | 'enterprise', id: string | undefined): string {
    if (!id) throw new StoreError('bad_record', `an installation without its ${kind} id`);
    return this.keys.installation(kind, id);
  }
}
