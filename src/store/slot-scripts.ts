// The Lua scripts of timeouts by deadline slot (store/slots.ts, store/slot-rescue.ts); scripts.ts registers them.

// One step of a slot's timeout job (store/slots.ts): forgets the ids it has handed to onDue, then returns the
// next batch of the slot's questions that are due on Redis TIME, or how long until the earliest one still ahead
// is (recording that deadline as the job's wake time w in the marker, in the same step: the job walks to it), or,
// when none is left, deletes the slot's marker if it still names this job's gen and returns 'done'. In one step,
// so a create racing the end of the job either joins the slot before the check (and is read) or finds no marker
// and opens a new job. A job whose gen the marker no longer names (its marker was deleted while it ran, by a
// finish that emptied the slot or by a read of its own, and a create then opened the slot again with a job of its
// own; or a rescue gave the slot a new gen) hands over what is due but does not walk on: the questions ahead are
// the other job's, and two jobs walking one slot would hand each question over twice.
// A read ahead (ARGV[5] '1', while the job's last questions are still in flight: store/slot-hand-over.ts) only
// forgets and reads due ids: {'due', ids} or {'none'}, the marker left as it is.
// KEYS[1] the due index  KEYS[2] the slot's marker
// ARGV[1] slot start ms  ARGV[2] slot width ms  ARGV[3] the job's gen  ARGV[4] batch size
// ARGV[5] '1' for a read ahead, else '0'  ARGV[6..] ids handed over.
// Returns {'due', ids} | {'wait', ms, the deadline waited for} | {'done'} | {'none'} (a read ahead only).
export const SLOT_NEXT_LUA = `
if #ARGV > 5 then redis.call('ZREM', KEYS[1], unpack(ARGV, 6)) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local first = tonumber(ARGV[1])
local after = first + tonumber(ARGV[2])
local upto = math.min(now, after - 1)
if upto >= first then
  local ids = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], string.format('%d', upto), 'LIMIT', 0, ARGV[4])
  if #ids > 0 then return {'due', ids} end
end
if ARGV[5] == '1' then return {'none'} end
local owned = redis.call('HGET', KEYS[2], 'g') == ARGV[3]
local ahead = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], '(' .. string.format('%d', after), 'WITHSCORES', 'LIMIT', 0, 1)
if #ahead > 0 and owned then
  redis.call('HSET', KEYS[2], 'w', ahead[2])
  return {'wait', string.format('%d', tonumber(ahead[2]) - now), ahead[2]}
end
if owned then redis.call('DEL', KEYS[2]) end
return {'done'}
`;

// Finds deadline slots whose questions are overdue by more than ARGV[3] ms on Redis TIME, which their slot's job
// should have ended long before (the create that opened the slot died before adding the job, or its add failed
// after other creates had joined the slot), and gives each of them a new marker gen for a new job. A job of the
// old gen that is merely late still runs: both hand the same questions over, and finish, a CAS, ends each once.
// A slot is left as it is while its marker names a job the caller found alive (working through a backlog), or
// while it was rescued less than ARGV[3] ms ago (marker field r, Redis TIME ms: the new job may not even be added
// yet, and every replica looks): so a slot gets a new job at most once per ARGV[3] ms whatever the replicas.
// Only the questions of a slot given a new job have their count in KEYS[2] raised, once per such rescue; one
// rescued more than ARGV[5] times (its onDue keeps failing) leaves the due index instead, so no job is made for
// it again: its record expires.
// KEYS[1] the due index  KEYS[2] the rescue counts  ARGV[1] slot marker prefix  ARGV[2] slot width ms
// ARGV[3] overdue ms  ARGV[4] marker and count ttl ms  ARGV[5] most rescues per question  ARGV[6..] fresh gens,
// one per slot it may rescue, and the job ids (<slot>.<gen>, with a '.', which gens never have) of the slot jobs
// the caller found alive. Returns {now, {slot, gen, slot, gen, ...}, {question ids given up}}.
export const SLOT_RESCUE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local after = tonumber(ARGV[3])
local before = '(' .. string.format('%d', now - after)
local late = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', before, 'WITHSCORES', 'LIMIT', 0, 1000)
local gens, alive = {}, {}
for i = 6, #ARGV do
  if string.find(ARGV[i], '.', 1, true) then alive[ARGV[i]] = true else gens[#gens + 1] = ARGV[i] end
end
local rescued, given = {}, {}
-- slot -> true once given a new job by this look, false once left to its job; nil while undecided.
local fate = {}
local function leave(slot)
  if #rescued / 2 >= #gens then return true end
  local m = redis.call('HMGET', ARGV[1] .. slot, 'g', 'r')
  if m[1] and alive[slot .. '.' .. m[1]] then return true end
  return m[2] ~= false and now - tonumber(m[2]) < after
end
for i = 2, #late, 2 do
  local id = late[i - 1]
  local slot = string.format('%d', math.floor(tonumber(late[i]) / tonumber(ARGV[2])))
  if fate[slot] == nil and leave(slot) then fate[slot] = false end
  if fate[slot] ~= false then
    if redis.call('HINCRBY', KEYS[2], id, 1) > tonumber(ARGV[5]) then
      redis.call('ZREM', KEYS[1], id)
      redis.call('HDEL', KEYS[2], id)
      given[#given + 1] = id
    elseif not fate[slot] then
      fate[slot] = true
      local gen = gens[#rescued / 2 + 1]
      local marker = ARGV[1] .. slot
      redis.call('DEL', marker)
      redis.call('HSET', marker, 'g', gen, 'w', string.format('%d', now), 'r', string.format('%d', now))
      redis.call('PEXPIRE', marker, ARGV[4])
      rescued[#rescued + 1] = slot
      rescued[#rescued + 1] = gen
    end
  end
end
if #late > 0 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return {string.format('%d', now), rescued, given}
`;

// The deferred drop of a slot a finish emptied but kept (store/slot-drops.ts): deletes the marker only while the
// slot is still empty and the marker still names the gen whose job the caller then removes; a create that joined
// the slot meanwhile (its question is in the due index) keeps both.
// KEYS[1] the due index  KEYS[2] the slot's marker; ARGV[1] slot start ms  ARGV[2] slot width ms  ARGV[3] gen.
// Returns 1 when it deleted the marker (the caller removes the job), else 0.
export const SLOT_DROP_LUA = `
if redis.call('HGET', KEYS[2], 'g') ~= ARGV[3] then return 0 end
local after = '(' .. string.format('%d', tonumber(ARGV[1]) + tonumber(ARGV[2]))
if redis.call('ZCOUNT', KEYS[1], ARGV[1], after) > 0 then return 0 end
redis.call('DEL', KEYS[2])
return 1
`;

// Deletes a slot's marker only while it names the given gen (a create whose job add failed). KEYS[1] marker; ARGV[1] gen.
export const SLOT_RELEASE_LUA = `
if redis.call('HGET', KEYS[1], 'g') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

// The wake time w of a slot's job, read after the job was put back or moved (store/slots.ts): a create may have
// lowered it meanwhile. KEYS[1] marker; ARGV[1] gen. Returns {w, or '' when the marker names another gen or is
// gone, Redis TIME ms}.
export const SLOT_WAKE_LUA = `
local t = redis.call('TIME')
local now = string.format('%d', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
if redis.call('HGET', KEYS[1], 'g') ~= ARGV[1] then return {'', now} end
return {redis.call('HGET', KEYS[1], 'w') or '', now}
`;
