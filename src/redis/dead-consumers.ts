// The consumers dead replicas leave in a stream's consumer group. Each replica reads a group as its own consumer,
// named by its holder id (src/main.ts: host, pid, random), so every replica that ever ran is listed, and a crashed
// one stays listed for ever: its pending entries are claimed by a live replica (XAUTOCLAIM), but XGROUP
// DELCONSUMER is the only way a consumer leaves. With replicas replaced often (k8s pods get new names) the list
// grows without bound, and XINFO and every claim scan walk it. A live replica removes, after its claim pass, the
// consumers that are dead by both of the bot's existing notions:
// - the replica's lease (`lease:<name>`, src/store/lease.ts) is gone: what the orphan sweep calls dead;
// - the consumer has been idle at least the group's claim threshold: what its claim calls dead;
// and that have nothing pending: DELCONSUMER drops a consumer's pending entries, which no one would be handed
// again (an end without its webhook, an audit event never stored). Pending and idle are checked in the script
// that deletes, so an entry handed to it meanwhile (a replica taken for dead coming back) keeps it.
// Never this replica's own consumer, whatever its lease says.
import type { RedisClient } from './topology.js';

/** Consumers looked at and removed per pass, longest idle first (a dead one's idle only grows). */
export const DEAD_CONSUMERS_PER_PASS = 100;

/** KEYS[1] the stream; ARGV[1] the group, ARGV[2] the least idle time (ms), ARGV[3..] the names. */
const REMOVE_IDLE_EMPTY_LUA = `
local wanted = {}
for i = 3, #ARGV do wanted[ARGV[i]] = true end
local minIdle = tonumber(ARGV[2])
local removed = {}
for _, c in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local f = {}
  for i = 1, #c, 2 do f[c[i]] = c[i + 1] end
  if wanted[f.name] and f.pending == 0 and f.idle >= minIdle then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], f.name)
    removed[#removed + 1] = f.name
  end
end
return removed
`;

export interface DeadConsumers {
  /** The stream's key. */
  key: string;
  group: string;
  /** This replica's consumer, never removed. */
  self: string;
  /** The group's claim threshold (ms): a consumer idle less is not looked at. */
  minIdleMs: number;
  /**
   * A replica's lease key (Keys.lease). All lease keys share the `{q}` hash tag, so one MGET reads them on a
   * Redis Cluster too.
   */
  lease: (holder: string) => string;
}

interface Consumer {
  name: string;
  pending: number;
  idle: number;
}

/** Removes the group's dead consumers with nothing pending (see above), at most DEAD_CONSUMERS_PER_PASS; their names. */
export async function removeDeadConsumers(redis: RedisClient, of: DeadConsumers): Promise<string[]> {
  const listed = consumersOf(await redis.xinfo('CONSUMERS', of.key, of.group));
  const idle = listed
    .filter((c) => c.name !== of.self && c.pending === 0 && c.idle >= of.minIdleMs)
    .sort((a, b) => b.idle - a.idle)
    .slice(0, DEAD_CONSUMERS_PER_PASS)
    .map((c) => c.name);
  if (idle.length === 0) return [];
  const leases = await redis.mget(...idle.map(of.lease));
  const dead = idle.filter((_, i) => leases[i] === null);
  if (dead.length === 0) return [];
  const removed: unknown = await redis.eval(
    REMOVE_IDLE_EMPTY_LUA,
    1,
    of.key,
    of.group,
    of.minIdleMs,
    ...dead,
  );
  return Array.isArray(removed) ? removed.filter((n): n is string => typeof n === 'string') : [];
}

/** XINFO CONSUMERS' reply ([name, n, pending, p, idle, ms, …] per consumer) as records. */
function consumersOf(reply: unknown): Consumer[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((fields: unknown): Consumer[] => {
    if (!Array.isArray(fields)) return [];
    const f = new Map<unknown, unknown>();
    for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i], fields[i + 1]);
    const [name, pending, idle] = [f.get('name'), f.get('pending'), f.get('idle')];
    if (typeof name !== 'string' || typeof pending !== 'number' || typeof idle !== 'number') return [];
    return [{ name, pending, idle }];
  });
}
