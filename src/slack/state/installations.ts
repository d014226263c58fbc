// Bolt's InstallationStore in Redis: one JSON record per workspace (or per Enterprise Grid org for org-wide
// installs), written by the OAuth redirect handler and read by `authorize` on every request, on any replica.
//
// Keys: `installation` in src/redis/layout.ts (kind `team` for a workspace install, `enterprise` for an org).
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { RedisClient } from '../../redis/index.js';
import { StoreError, commandError, keys, type Keys } from '../../redis/index.js';

type AnyInstallation = Installation<'v1' | 'v2', boolean>;

export class RedisInstallationStore implements InstallationStore {
  private readonly keys: Keys;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.keys = keys(prefix);
  }

  async storeInstallation(installation: AnyInstallation): Promise<void> {
    const key = installation.isEnterpriseInstall
      ? this.key('enterprise', installation.enterprise?.id)
      : this.key('team', installation.team?.id);
    try {
      await this.redis.set(key, JSON.stringify(installation));
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
