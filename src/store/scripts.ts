import type { Redis } from 'ioredis';

// The one atomic transition. Everything that decides an outcome happens inside this script, so duplicate
// submits, a submit racing the timeout, or two replicas at once can never produce two outcomes.
//
// KEYS[1] question hash   KEYS[2] inbox stream of the question's holder (same hash slot, see keys.ts)
// ARGV[1] new state  ARGV[2] outcome JSON  ARGV[3] reason  ARGV[4] retention seconds
// ARGV[5] approximate inbox length cap  ARGV[6] question id
// Returns {'missing'} | {'lost', HGETALL} | {'won', HGETALL}.
export const FINISH_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
if redis.call('HGET', KEYS[1], 'state') ~= 'pending' then
  return {'lost', redis.call('HGETALL', KEYS[1])}
end
local t = redis.call('TIME')
local endedAt = t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000))
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'outcome', ARGV[2], 'reason', ARGV[3], 'endedAt', endedAt)
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'id', ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return {'won', redis.call('HGETALL', KEYS[1])}
`;

/** Sets the card only while the question exists, so a late attach cannot resurrect an expired record. */
export const ATTACH_CARD_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'cardChannel', ARGV[1], 'cardTs', ARGV[2])
return 1
`;

export interface StoreScripts {
  /** FINISH_LUA: (questionKey, inboxKey, state, outcomeJson, reason, retentionSec, inboxMaxLen, id). */
  questionFinish(...args: (string | number)[]): Promise<unknown>;
  /** ATTACH_CARD_LUA: (questionKey, channel, ts). */
  questionAttachCard(...args: string[]): Promise<unknown>;
}

/** Registers the scripts on a client; ioredis then runs them by EVALSHA, loading them when Redis lacks them. */
export function withScripts(redis: Redis): Redis & StoreScripts {
  redis.defineCommand('questionFinish', { numberOfKeys: 2, lua: FINISH_LUA });
  redis.defineCommand('questionAttachCard', { numberOfKeys: 1, lua: ATTACH_CARD_LUA });
  return redis as Redis & StoreScripts;
}
