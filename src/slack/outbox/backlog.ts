// When the oldest call still in the outbox was queued, for elicit_relay_outbox_oldest_age_seconds (read at every
// scrape). No state's order is queue order: the delayed set is ordered by due time (a card held by a 30 s
// Retry-After is due after one paced a few seconds on, though queued long before it), the prioritized set by
// priority, and the wait list by when each job entered it. So the oldest is the least `timestamp` (BullMQ's
// time the job was added, epoch ms, kept across retries and delays) over the jobs themselves.
//
// One Lua script reads those timestamps only (one HGET per job, never the job's data, which holds the card's
// blocks), in one round trip. It is bounded so that a backlog in the thousands never makes a scrape slow or
// holds Redis up: at most OLDEST_SCAN_CAP jobs per state are looked at. Below the cap the answer is exact;
// above it, it is the oldest of those read (so the age reported is at most the true one), taken where the old
// ones are: the wait list's tail (jobs are LPUSHed there, so it entered first) and both ends of the delayed
// set. A backlog that big has elicit_relay_outbox_depth past the ElicitRelayOutboxBacklog alert's 100 anyway.
//
// The script reads BullMQ's own layout (queue.toKey(state): lists `wait` and `active`, sorted sets
// `prioritized` and `delayed`; a job's hash at queue.toKey(id) with its `timestamp` field), as of BullMQ 6; the
// outbox's oldest-age test fails should a later BullMQ change it. All these keys carry the queue's `{bull}` hash
// tag, so the job hashes the script names itself are in its keys' slot on Redis Cluster too.
import type { Queue } from 'bullmq';
import type { RedisClient } from '../../redis/index.js';

/**
 * Most jobs per state whose time the script reads. Measured with 10,000 card posts queued (waiting, delayed or
 * half of each): 0.7-1.9 ms of Redis time per read and a 1-2.5 ms backlog() (median), against 13-18 ms of Redis
 * time, Redis serving nothing else meanwhile, to read all 10,000. At most 4 × 1,000 timestamps per scrape and
 * replica, and every backlog of up to 1,000 jobs per state is read exactly.
 */
export const OLDEST_SCAN_CAP = 1_000;

const OLDEST_LUA = `
local prefix, cap = ARGV[1], math.max(1, tonumber(ARGV[2]))
-- Both at least 1: with 0, a range 0 -1 would read the whole key.
local half = math.max(1, math.floor(cap / 2))
local oldest = false
local function look(ids)
  for _, id in ipairs(ids) do
    local queued = tonumber(redis.call('HGET', prefix .. id, 'timestamp'))
    if queued and (not oldest or queued < oldest) then oldest = queued end
  end
end
look(redis.call('LRANGE', KEYS[1], -cap, -1))
look(redis.call('LRANGE', KEYS[2], 0, cap - 1))
look(redis.call('ZRANGE', KEYS[3], 0, cap - 1))
if redis.call('ZCARD', KEYS[4]) <= cap then
  look(redis.call('ZRANGE', KEYS[4], 0, -1))
else
  look(redis.call('ZRANGE', KEYS[4], 0, half - 1))
  look(redis.call('ZRANGE', KEYS[4], -half, -1))
end
return oldest
`;

/** When the oldest job not yet done in `queue` was added (epoch ms); undefined when there is none. */
export async function oldestQueuedAt(
  redis: RedisClient,
  queue: Pick<Queue, 'toKey'>,
  cap = OLDEST_SCAN_CAP,
): Promise<number | undefined> {
  const states = ['wait', 'active', 'prioritized', 'delayed'].map((state) => queue.toKey(state));
  const oldest = await redis.eval(OLDEST_LUA, states.length, ...states, queue.toKey(''), cap);
  return typeof oldest === 'number' ? oldest : undefined;
}
