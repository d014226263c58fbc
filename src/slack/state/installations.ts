// Bolt's InstallationStore in Redis: one JSON record per workspace (or per Enterprise Grid org for org-wide
// installs), written by the OAuth redirect handler and read by `authorize` on every request, on any replica.
// Each record also keeps when it was installed (`installedAt`), so that an app_uninstalled or tokens_revoked
// Slack delivers again after a reinstall, describing the installation before, does not delete the new one.
//
// Keys: `installation` in src/redis/layout.ts (kind `team` for a workspace install, `enterprise` for an org).
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { RedisClient } from '../../redis/index.js';
import { StoreError, commandError, keys, type Keys } from '../../redis/index.js';
import type { DepartedInstallations, DepartureDelete } from './ports.js';

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

export class RedisInstallationStore implements InstallationStore, DepartedInstallations {
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
    const key = installation.isEnterpriseInstall
      ? this.key('enterprise', installation.enterprise?.id)
      : this.key('team', installation.team?.id);
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

  private key(kind: 'team' | 'enterprise', id: string | undefined): string {
    if (!id) throw new StoreError('bad_record', `an installation without its ${kind} id`);
    return this.keys.installation(kind, id);
  }
}
