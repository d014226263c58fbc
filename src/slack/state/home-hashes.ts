// The hash of each person's Home view as its last recorded views.publish left it (key `homeHash`,
// src/redis/layout.ts), for the App Home's guarded publishes (src/slack/home-publish.ts). A record replaces the
// one its publish was guarded by, never a newer one: one script reads and writes, so two replicas' records
// cannot cross. One key per command, so it needs no hash tag on Redis Cluster.
import type { RedisClient } from '../../redis/index.js';
import type { HashCondition } from './ports.js';

/**
 * How long a Home hash is kept after its last publish, in seconds (30 days). Slack keeps the Home itself with no
 * end; a person's key lapses so that people gone do not keep keys forever, at the cost of one unguarded publish
 * (a record made only when none is, `none`) when they come back.
 */
export const HOME_HASH_TTL_SEC = 30 * 86_400;

/** KEYS[1]: the hash key. ARGV: condition (`was`, `none`, `any`), the hash it names, the new hash, TTL (s). */
const RECORD_LUA = `
local current = redis.call('GET', KEYS[1])
if ARGV[1] == 'was' and current ~= ARGV[2] then return 0 end
if ARGV[1] == 'none' and current then return 0 end
redis.call('SET', KEYS[1], ARGV[3], 'EX', ARGV[4])
return 1`;

/** The recorded hash at `key`, if any. */
export async function readHomeHash(cmd: RedisClient, key: string): Promise<string | undefined> {
  return (await cmd.get(key)) ?? undefined;
}

/** Records `hash` at `key` when `condition` holds; true when it did. */
export async function recordHomeHash(
  cmd: RedisClient,
  key: string,
  hash: string,
  condition: HashCondition,
): Promise<boolean> {
  const [mode, was] = typeof condition === 'string' ? [condition, ''] : ['was', condition.was];
  return (await cmd.eval(RECORD_LUA, 1, key, mode, was, hash, HOME_HASH_TTL_SEC)) === 1;
}
