// Which Enterprise Grid org's org-wide installation serves each workspace, in Redis (installations.ts keeps it
// beside the installations). A link is kept as {"org": "E…", "at": <epoch ms>}: `at` is when it was learnt (a
// request through the org's installation, team_access_granted, or the org's auth.teams.list), so that a
// team_access_revoked Slack delivers again after the workspace was granted again, describing the grant before, does
// not drop the new link (as installedAt does for an installation). A plain org id, written before `at` was kept,
// reads as learnt at 0.
//
// The orgs that installed the app org-wide are kept in a set, so a replica can ask each which workspaces it is
// granted when a workspace's org is not known yet (workspaces.ts).
import type { RedisClient } from '../../redis/index.js';
import { commandError, type Keys } from '../../redis/index.js';
import type { DepartureDelete } from './ports.js';

/**
 * Deletes KEYS[1] when it links to org ARGV[1] and was learnt before ARGV[2] (epoch ms). A link to another org is
 * not this org's to drop; one learnt at or after ARGV[2] came after the revocation.
 */
const UNLINK_UNLESS_NEWER_LUA = `
local text = redis.call('GET', KEYS[1])
if not text then return 'none' end
local org, at = text, 0
local ok, link = pcall(cjson.decode, text)
if ok and type(link) == 'table' then
  org = link.org
  at = tonumber(link.at) or 0
end
if org ~= ARGV[1] then return 'none' end
if at >= tonumber(ARGV[2]) then return 'newer' end
redis.call('DEL', KEYS[1])
return 'deleted'
`;

export class RedisOrgLinks {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
    private readonly now: () => number,
  ) {}

  /** Kept without expiry: the link goes with the org's access (team_access_revoked) or its installation. */
  async link(teamId: string, enterpriseId: string): Promise<void> {
    const link = JSON.stringify({ org: enterpriseId, at: this.now() });
    try {
      await this.redis.set(this.keys.workspaceOrg(teamId), link);
    } catch (cause) {
      throw commandError("noting a workspace's org", cause);
    }
  }

  async orgOf(teamId: string): Promise<string | undefined> {
    let text: string | null;
    try {
      text = await this.redis.get(this.keys.workspaceOrg(teamId));
    } catch (cause) {
      throw commandError("reading a workspace's org", cause);
    }
    return text === null ? undefined : orgIn(text);
  }

  async unlink(teamId: string, enterpriseId: string, departedBy: number): Promise<DepartureDelete> {
    try {
      const key = this.keys.workspaceOrg(teamId);
      const result = await this.redis.eval(UNLINK_UNLESS_NEWER_LUA, 1, key, enterpriseId, departedBy);
      return result === 'newer' ? 'newer' : result === 'deleted' ? 'deleted' : 'none';
    } catch (cause) {
      throw commandError("dropping a workspace's org", cause);
    }
  }

  /** Notes that org `enterpriseId` installed the app org-wide, or (`installed` false) no longer has it. */
  async noteOrg(enterpriseId: string, installed: boolean): Promise<void> {
    const key = this.keys.orgInstallations;
    try {
      await (installed ? this.redis.sadd(key, enterpriseId) : this.redis.srem(key, enterpriseId));
    } catch (cause) {
      throw commandError('noting an org-wide installation', cause);
    }
  }

  async orgs(): Promise<string[]> {
    try {
      return await this.redis.smembers(this.keys.orgInstallations);
    } catch (cause) {
      throw commandError('listing the org-wide installations', cause);
    }
  }
}

/** The org a stored link names: its JSON's `org`, or the plain org id stored before links kept their time. */
function orgIn(text: string): string | undefined {
  if (!text.startsWith('{')) return text;
  try {
    const link: unknown = JSON.parse(text);
    const org = typeof link === 'object' && link !== null && 'org' in link ? link.org : undefined;
    return typeof org === 'string' ? org : undefined;
  } catch {
    return undefined;
  }
}
