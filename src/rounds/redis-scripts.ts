// The round store's Lua scripts (redis-store.ts runs them): every step that reads and writes a round is one
// script, so two replicas recording the last two answers at once claim the retry once. Fields as in
// redis-store.ts; `requestState`/`requestStateJson` as redis-record.ts writes them.

// Whether a waiting round's holder other than ARGV[1] still lives: its lease key (the question store's, same
// {q} slot) is named from the prefix in ARGV[LEASE]. Such a holder claims its round's retry itself.
const HOLDER_ALIVE = (lease: number): string => `
local function holderAlive(holder)
  return holder and holder ~= ARGV[1] and redis.call('EXISTS', ARGV[${lease}] .. holder) == 1
end
`;

// KEYS[1] round  KEYS[2] requests  KEYS[3] answers
// ARGV[1] claimant  ARGV[2] round number  ARGV[3] key  ARGV[4] answer JSON  ARGV[5] lease end (epoch ms)
// ARGV[6] lease key prefix. ARGV[1] '' = record only, never claim.
export const ANSWER_LUA = `${HOLDER_ALIVE(6)}
local r = redis.call('HMGET', KEYS[1], 'round', 'status', 'holder')
if not r[1] then return 'missing' end
if r[1] ~= ARGV[2] or redis.call('HEXISTS', KEYS[2], ARGV[3]) == 0 then return 'stale' end
redis.call('HSETNX', KEYS[3], ARGV[3], ARGV[4])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
if r[2] ~= 'waiting' or redis.call('HLEN', KEYS[3]) < redis.call('HLEN', KEYS[2]) then return 'recorded' end
if ARGV[1] == '' or holderAlive(r[3]) then return 'recorded' end
redis.call('HSET', KEYS[1], 'status', 'claimed', 'claimant', ARGV[1], 'leaseUntil', ARGV[5])
return 'claimed'
`;

// KEYS[1] round  KEYS[2] requests  KEYS[3] answers  KEYS[4] open set
// ARGV[1] claimant  ARGV[2] now (epoch ms)  ARGV[3] lease end  ARGV[4] id  ARGV[5] lease key prefix.
// 1 when claimed. A waiting round the claimant holds is its own call's to claim (the claimant is alive).
export const TAKE_OVER_LUA = `${HOLDER_ALIVE(5)}
local r = redis.call('HMGET', KEYS[1], 'status', 'leaseUntil', 'holder')
if not r[1] then
  redis.call('ZREM', KEYS[4], ARGV[4])
  return 0
end
if r[1] == 'waiting' then
  if redis.call('HLEN', KEYS[3]) < redis.call('HLEN', KEYS[2]) then return 0 end
  if r[3] == ARGV[1] or holderAlive(r[3]) then return 0 end
elseif tonumber(r[2]) > tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[1], 'status', 'claimed', 'claimant', ARGV[1], 'leaseUntil', ARGV[3])
return 1
`;

const HELD = `
local r = redis.call('HMGET', KEYS[1], 'status', 'claimant')
if r[1] ~= 'claimed' or r[2] ~= ARGV[1] then return 0 end
`;

// KEYS[1] round  ARGV[1] claimant  ARGV[2] lease end
export const RENEW_LUA = `${HELD}
redis.call('HSET', KEYS[1], 'leaseUntil', ARGV[2])
return 1
`;

// KEYS[1] round  KEYS[2] requests  KEYS[3] answers  KEYS[4] open set
// ARGV[1] claimant  ARGV[2] id  ARGV[3] requestState  ARGV[4] '1' when there is one  ARGV[5] key order JSON
// ARGV[6] deadline  ARGV[7] expiry (epoch ms)  ARGV[8] the questions already asked, JSON {question:<key>: id}
// ARGV[9] requestState as JSON text, '' when kept as is (redis-record.ts)  ARGV[10] lease end (epoch ms)
// ARGV[11..] request key, request JSON pairs. The questions are written here, not after: a round finished or
// expired meanwhile would otherwise be made again by that write, without its expiry. A round without requests
// asks nothing: complete as recorded, it stays claimed by ARGV[1], who sends its retry at once.
export const NEXT_LUA = `${HELD}
for _, key in ipairs(cjson.decode(redis.call('HGET', KEYS[1], 'order'))) do
  redis.call('HDEL', KEYS[1], 'question:' .. key)
end
for field, id in pairs(cjson.decode(ARGV[8])) do redis.call('HSET', KEYS[1], field, id) end
redis.call('DEL', KEYS[2], KEYS[3])
for i = 11, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('HINCRBY', KEYS[1], 'round', 1)
redis.call('HSET', KEYS[1], 'order', ARGV[5], 'deadline', ARGV[6], 'holder', ARGV[1])
if #ARGV > 10 then
  redis.call('HSET', KEYS[1], 'status', 'waiting')
  redis.call('HDEL', KEYS[1], 'claimant', 'leaseUntil')
else redis.call('HSET', KEYS[1], 'leaseUntil', ARGV[10]) end
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'requestState', ARGV[3])
else redis.call('HDEL', KEYS[1], 'requestState') end
if ARGV[9] ~= '' then redis.call('HSET', KEYS[1], 'requestStateJson', ARGV[9])
else redis.call('HDEL', KEYS[1], 'requestStateJson') end
redis.call('PEXPIREAT', KEYS[1], ARGV[7])
redis.call('PEXPIREAT', KEYS[2], ARGV[7])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[2])
return 1
`;

// KEYS[1] round  KEYS[2] requests  KEYS[3] answers  KEYS[4] open set  ARGV[1] claimant  ARGV[2] id
// The claimant, or the holder of a round still waiting (its call failed while asking), may finish it.
export const FINISH_LUA = `
local r = redis.call('HMGET', KEYS[1], 'status', 'claimant', 'holder')
local claimed = r[1] == 'claimed' and r[2] == ARGV[1]
if not claimed and not (r[1] == 'waiting' and r[3] == ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[2])
return 1
`;

// KEYS[1] round  KEYS[2] requests  ARGV[1] round number  ARGV[2] key  ARGV[3] question id
export const ATTACH_LUA = `
if redis.call('HGET', KEYS[1], 'round') ~= ARGV[1] then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'question:' .. ARGV[2], ARGV[3])
return 1
`;
