// Which Enterprise Grid org's org-wide installation serves each workspace, in Redis (installations.ts keeps it
// beside the installations). A link is kept as {"org": "E…", "at": <epoch ms>}: `at` is when it was learnt (a
// request through the org's installation or the org's auth.teams.list: then; team_access_granted: the event's
// time), so that a team_access_revoked Slack delivers again after the workspace was granted again, describing the
// grant before, does not drop the new link (as installedAt does for an installation). A plain org id, written
// before `at` was kept, reads as learnt at 0.
//
// A revocation is also kept an hour beside the link ({"org", "at": <its departedBy>}, `workspaceOrgRevoked`), so
// that a grant stamped before it (Slack delivering again, minutes later, a grant whose first delivery died with
// its replica, or a slow replica) links nothing. One key per command (Redis Cluster), made safe by their order:
// a revocation is kept before the link is dropped, a grant checks the revocation after its link is written (and
// takes it back): whichever runs second sees the other's write. A request or a listing links a workspace only
// where no other org's link is: only the org's own grant moves a workspace from one org to another.
//
// The orgs that installed the app org-wide are kept in a set, so a replica can ask each which workspaces it is
// granted when a workspace's org is not known yet (workspaces.ts).
import type { RedisClient } from '../../redis/index.js';
import { commandError, type Keys } from '../../redis/index.js';
import type { DepartureDelete } from './ports.js';

/**
 * How long a revocation is kept beside the link, ms (1 h): past Slack's redeliveries of an event (at once, after
 * 1 and after 5 minutes) and a replica that took one and wrote late.
 */
const REVOCATION_KEPT_MS = 3_600_000;

/** Reads KEYS[1] as org and at (a plain org id: learnt at 0); org is nil with no record. */
const READ_LUA = `
local text = redis.call('GET', KEYS[1])
local org, at = nil, 0
if text then
  org = text
  local ok, link = pcall(cjson.decode, text)
  if ok and type(link) == 'table' then
    org = link.org
    at = tonumber(link.at) or 0
  end
end
`;

/** A request or a listing: KEYS[1] set to ARGV[2] (org ARGV[1]'s link) unless it links another org. 1 when set. */
const NOTE_LUA = `${READ_LUA}
if org ~= nil and org ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`;

/** A grant at ARGV[2] (epoch ms): KEYS[1] set to ARGV[3] unless this org's link is as new. 1 when set. */
const GRANT_LUA = `${READ_LUA}
if org == ARGV[1] and at >= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[3])
return 1
`;

/** Deletes KEYS[1] while it holds ARGV[1]: a grant's own link taken back, never one written since. */
const DELETE_IF_HELD_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Keeps revocation ARGV[2] (of org ARGV[1], by ARGV[3] epoch ms) at KEYS[1] for ARGV[4] ms, unless one of that org
 * as late is kept.
 */
const KEEP_REVOCATION_LUA = `${READ_LUA}
if org == ARGV[1] and at >= tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[4])
return 1
`;

/**
 * Deletes KEYS[1] when it links to org ARGV[1] and was learnt before ARGV[2] (epoch ms). A link to another org is
 * not this org's to drop; one learnt at or after ARGV[2] came after the revocation.
 */
const UNLINK_UNLESS_NEWER_LUA = `${READ_LUA}
if org == nil or org ~= ARGV[1] then return 'none' end
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

  /**
   * A request through org `enterpriseId`'s installation, or its listing, names `teamId`: linked now (kept without
   * expiry), unless another org's link is kept. True when linked.
   */
  async link(teamId: string, enterpriseId: string): Promise<boolean> {
    const link = JSON.stringify({ org: enterpriseId, at: this.now() });
    return (await this.eval(NOTE_LUA, this.keys.workspaceOrg(teamId), enterpriseId, link)) === 1;
  }

  /**
   * Org `enterpriseId` was granted `teamId` at `grantedAt` (epoch ms): linked unless its link is as new, or a
   * revocation of a later second is kept (one within the grant's second may have come before it).
   */
  async grant(teamId: string, enterpriseId: string, grantedAt: number): Promise<boolean> {
    const link = JSON.stringify({ org: enterpriseId, at: grantedAt });
    const key = this.keys.workspaceOrg(teamId);
    if ((await this.eval(GRANT_LUA, key, enterpriseId, grantedAt, link)) !== 1) return false;
    const revoked = await this.revokedBy(teamId, enterpriseId);
    if (revoked === undefined || revoked - 1000 <= grantedAt) return true;
    await this.eval(DELETE_IF_HELD_LUA, key, link);
    return false;
  }

  async orgOf(teamId: string): Promise<string | undefined> {
    let text: string | null;
    try {
      text = await this.redis.get(this.keys.workspaceOrg(teamId));
    } catch (cause) {
      throw commandError("reading a workspace's org", cause);
    }
    return text === null ? undefined : linkIn(text)?.org;
  }

  /** Keeps the revocation first, then drops the link unless it is newer (see the top of this file). */
  async unlink(teamId: string, enterpriseId: string, departedBy: number): Promise<DepartureDelete> {
    const revocation = JSON.stringify({ org: enterpriseId, at: departedBy });
    const kept = this.keys.workspaceOrgRevoked(teamId);
    await this.eval(KEEP_REVOCATION_LUA, kept, enterpriseId, revocation, departedBy, REVOCATION_KEPT_MS);
    const result = await this.eval(
      UNLINK_UNLESS_NEWER_LUA,
      this.keys.workspaceOrg(teamId),
      enterpriseId,
      departedBy,
    );
    return result === 'newer' ? 'newer' : result === 'deleted' ? 'deleted' : 'none';
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

  /** When org `enterpriseId`'s latest kept revocation of `teamId` took effect (its departedBy, epoch ms). */
  private async revokedBy(teamId: string, enterpriseId: string): Promise<number | undefined> {
    let text: string | null;
    try {
      text = await this.redis.get(this.keys.workspaceOrgRevoked(teamId));
    } catch (cause) {
      throw commandError("reading a workspace's revocation", cause);
    }
    const revocation = text === null ? undefined : linkIn(text);
    return revocation?.org === enterpriseId ? revocation.at : undefined;
  }

  /** One of this file's scripts on one key. */
  private async eval(script: string, key: string, ...args: (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.eval(script, 1, key, ...args);
    } catch (cause) {
      throw commandError("changing a workspace's org", cause);
    }
  }
}

/** What a stored link (or revocation) names: its JSON's org and at, or a plain org id stored before `at` was. */
function linkIn(text: string): { org: string; at: number } | undefined {
  if (!text.startsWith('{')) return { org: text, at: 0 };
  try {
    const link: unknown = JSON.parse(text);
    if (typeof link !== 'object' || link === null || !('org' in link) || typeof link.org !== 'string')
      return undefined;
    const at = 'at' in link && typeof link.at === 'number' ? link.at : 0;
    return { org: link.org, at };
  } catch {
    return undefined;
  }
}
