// Bolt's InstallationStore in Redis: one JSON record per workspace (or per Enterprise Grid org for org-wide
// installs), written by the OAuth redirect handler and read by `authorize` on every request, on any replica.
// Each record also keeps when it was installed (`installedAt`), so that an app_uninstalled or tokens_revoked
// Slack delivers again after a reinstall, describing the installation before, does not delete the new one.
//
// With token rotation, a refreshed bot token and its refresh token are saved in the same record, as the install
// saved the first ones, and only over the refresh token the refresh spent; the refresh's claim (one replica at a
// time) sits beside it. Records are sealed with ELICIT_RELAY_TOKEN_KEY when it is set (sealed-installations.ts).
//
// An org-wide install serves every workspace of its org that adds the app; each request through it names the
// workspace and the org, and the workspace's link to the org (`linkWorkspace`, org-links.ts) is kept so that calls
// made with only the workspace's id (the outbox, App Home, lookups) find the org's installation (workspaces.ts).
// The orgs installed are listed too (`orgInstallations`), so their granted workspaces can be asked for.
//
// Keys: `installation` and `installationRefresh` in src/redis/layout.ts (kind `team` for a workspace install,
// `enterprise` for an org), `workspaceOrg` and `orgInstallations`.
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { RedisClient } from '../../redis/index.js';
import { StoreError, commandError, keys, type Keys } from '../../redis/index.js';
import type {
  DepartedInstallations,
  DepartureDelete,
  RefreshedInstallations,
  WorkspaceOrgs,
} from './ports.js';
import { RedisOrgLinks } from './org-links.js';
import { InstallationRecords, type StoredInstallation } from './sealed-installations.js';

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
 * Sets KEYS[1] to ARGV[2] only while it holds ARGV[1], the record as read: what was checked of it (a sealed
 * record's tokens are not readable in Redis) still holds. 1 when set.
 */
const SET_IF_UNCHANGED_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`;

/** Deletes KEYS[1] only while it holds ARGV[1]: a claim that lapsed and was taken over is left to its holder. */
const DELETE_IF_HELD_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export class RedisInstallationStore
  implements InstallationStore, DepartedInstallations, RefreshedInstallations, WorkspaceOrgs
{
  private readonly keys: Keys;
  private readonly links: RedisOrgLinks;

  /**
   * `now`: the wall clock, epoch ms. Not the bot's injected clock: it is compared with the event_time Slack
   * stamps on a departure. `records`: how a record is kept (sealed or plain JSON); default plain.
   */
  constructor(
    private readonly redis: RedisClient,
    prefix: string,
    private readonly now: () => number = Date.now,
    private readonly records = new InstallationRecords(),
  ) {
    this.keys = keys(prefix);
    this.links = new RedisOrgLinks(redis, this.keys, now);
  }

  /**
   * Saves the installation with its `installedAt`: now for a new one (the OAuth redirect), kept for one that
   * has it (Bolt saves a fetched installation again when it rotates its tokens).
   */
  async storeInstallation(installation: AnyInstallation): Promise<void> {
    const key = this.recordKey(installation);
    try {
      await this.redis.set(key, this.records.write(this.stored(installation), key));
    } catch (cause) {
      throw commandError('storing an installation', cause);
    }
    const org = installation.isEnterpriseInstall ? installation.enterprise?.id : undefined;
    if (org !== undefined) await this.links.noteOrg(org, true);
  }

  /** The installation for the query's org-wide install or workspace; rejects when there is none. */
  async fetchInstallation(query: InstallationQuery<boolean>): Promise<AnyInstallation> {
    const key = this.keyOf(query);
    const text = await this.textAt(key, 'fetching an installation');
    if (text === null) {
      const where = query.isEnterpriseInstall ? `org ${query.enterpriseId}` : `workspace ${query.teamId}`;
      throw new StoreError('not_installed', `the app is not installed in ${where}`);
    }
    const { installation, reseal } = this.records.read(text, key);
    // Sealed with _PREVIOUS: sealed with the current key now, unless written meanwhile. A failure is no failure
    // of the read: the next read tries again.
    if (reseal) await this.setIfUnchanged(key, text, installation).catch(() => false);
    return installation;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    try {
      await this.redis.del(this.keyOf(query));
    } catch (cause) {
      throw commandError('deleting an installation', cause);
    }
    await this.orgGone(query);
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

  /**
   * Saved only while the record holds `spent`: never over a reinstall, an uninstall (no record) or another
   * replica's refresh. Read, checked, then set only over the record as read; set again on a record written
   * meanwhile (each retry means another write landed, and an installation has few writers).
   */
  async storeRefreshed(installation: AnyInstallation, spent: string): Promise<boolean> {
    const key = this.recordKey(installation);
    for (;;) {
      const text = await this.textAt(key, 'storing a refreshed installation');
      if (text === null || this.records.read(text, key).installation.bot?.refreshToken !== spent)
        return false;
      if (await this.setIfUnchanged(key, text, installation)) return true;
    }
  }

  /** The departure's delete: the installation is kept when it was installed at or after `departedBy`. */
  async deleteInstalledBefore(
    query: InstallationQuery<boolean>,
    departedBy: number,
  ): Promise<DepartureDelete> {
    let result: unknown;
    try {
      result = await this.redis.eval(DELETE_UNLESS_NEWER_LUA, 1, this.keyOf(query), departedBy);
    } catch (cause) {
      throw commandError('deleting an installation', cause);
    }
    if (result === 'newer') return 'newer';
    await this.orgGone(query);
    return result === 'deleted' ? 'deleted' : 'none';
  }

  /** A link to an org gone finds no installation: links go with the org's access (team_access_revoked). */
  linkWorkspace(teamId: string, enterpriseId: string, grantedAt?: number): Promise<boolean> {
    return grantedAt === undefined
      ? this.links.link(teamId, enterpriseId)
      : this.links.grant(teamId, enterpriseId, grantedAt);
  }

  orgOf(teamId: string): Promise<string | undefined> {
    return this.links.orgOf(teamId);
  }

  unlinkWorkspace(teamId: string, enterpriseId: string, departedBy: number): Promise<DepartureDelete> {
    return this.links.unlink(teamId, enterpriseId, departedBy);
  }

  orgInstallations(): Promise<string[]> {
    return this.links.orgs();
  }

  /** An org's installation deleted: the org is no longer listed among those asked for their workspaces. */
  private async orgGone(query: InstallationQuery<boolean>): Promise<void> {
    if (query.isEnterpriseInstall && query.enterpriseId) await this.links.noteOrg(query.enterpriseId, false);
  }

  /** The installation with its `installedAt`, now or kept (see storeInstallation). */
  private stored(installation: AnyInstallation): StoredInstallation {
    const installedAt =
      'installedAt' in installation && typeof installation.installedAt === 'number'
        ? installation.installedAt
        : this.now();
    return { ...installation, installedAt };
  }

  private async textAt(key: string, doing: string): Promise<string | null> {
    try {
      return await this.redis.get(key);
    } catch (cause) {
      throw commandError(doing, cause);
    }
  }

  /** Writes `installation` at `key` only while it holds `was`; true when written. */
  private async setIfUnchanged(key: string, was: string, installation: AnyInstallation): Promise<boolean> {
    const next = this.records.write(this.stored(installation), key);
    try {
      return (await this.redis.eval(SET_IF_UNCHANGED_LUA, 1, key, was, next)) === 1;
    } catch (cause) {
      throw commandError('storing an installation', cause);
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
