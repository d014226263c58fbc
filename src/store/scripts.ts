import type { RedisClient } from '../redis/index.js';
import {
  SLOT_DROP_LUA,
  SLOT_NEXT_LUA,
  SLOT_RELEASE_LUA,
  SLOT_RESCUE_LUA,
  SLOT_WAKE_LUA,
} from './slot-scripts.js';

/** The stored outcome of an accepted question once its content was dropped (see record.ts). */
export const DROPPED_OUTCOME = '{"action":"accept","contentDropped":true}';

// Puts a record's shared schema back (store/schemas.ts): a flat HGETALL reply naming `schemaRef` gets the
// schema's JSON appended as `requestedSchema`. `schemaPrefix` is the schema key without its ref, which shares the
// question's `{q}` hash tag, so on a Cluster it is on the node that runs the script.
const WITH_SCHEMA_LUA = `
local function withSchema(record, schemaPrefix)
  for i = 1, #record, 2 do
    if record[i] == 'schemaRef' then
      local json = redis.call('GET', schemaPrefix .. record[i + 1])
      if json then
        record[#record + 1] = 'requestedSchema'
        record[#record + 1] = json
      end
      break
    end
  end
  return record
end
`;

// The one atomic transition. Everything that decides an outcome happens inside this script, so duplicate
// submits, a submit racing the timeout, or two replicas at once can never produce two outcomes. The winner
// also drops the question from its holder's and its person's pending indexes in the same step.
//
// The holder's inbox and pending zset and the person's pending zset are named by the record's own holder and
// userId, so the script builds those keys from their prefixes (ARGV[10..12]) instead of the caller reading the
// two fields first: one Redis round trip per finish instead of two (issue #19 goal 1). They share the question's
// `{q}` hash tag (src/redis/layout.ts), so on a Cluster they live on the node that owns KEYS[1] and the script
// may touch them there.
//
// KEYS[1] question hash   KEYS[2] the deployment's ended stream   KEYS[3] the due index (store/slots.ts)
// ARGV[1] new state  ARGV[2] outcome JSON  ARGV[3] reason  ARGV[4] retention seconds
// ARGV[5] approximate inbox length cap  ARGV[6] question id  ARGV[7] who ended it ('' for nobody)
// ARGV[8] the holder that means nobody waits (no inbox entry)  ARGV[9] approximate ended-stream length cap
// ARGV[10] inbox key prefix (+ holder)  ARGV[11] holder's pending zset prefix  ARGV[12] person's zset prefix
// ARGV[13] schema key prefix (+ ref): the record's shared schema is kept at least as long as the record now is.
// ARGV[14] '1' when a timeout job ends it: a pending question whose deadline is still ahead on Redis TIME is left
// as it is (the job fired early by its worker's clock), checked here rather than by one more round trip first.
// The inbox entry carries the ended record itself (its fields, 'id' among them), so the holder reads it with the
// entry instead of one HGETALL per question.
// Every win is announced on the ended stream ({id, state}, and round: 1 for a durable round's question, whose
// answer the rounds group records): long-polls, webhooks and the audit follow it.
// ARGV[15] slot marker key prefix (+ slot number)  ARGV[16] slot width ms  ARGV[17] '1' to keep an emptied slot.
// The winner leaves the due index; when it was the last of its deadline slot (and the slot's own timeout job is
// not the one ending it, ARGV[14]), the slot's gen is returned so the caller can drop its job without reading
// first. The marker is deleted here unless ARGV[17] is '1': then the caller drops the slot later, if it is still
// empty (store/slot-drops.ts), and a create meanwhile joins the slot and its job instead of adding one.
// KEYS[4] the rescue counts (store/slot-rescue.ts): the winner's count, if it has one, goes with it.
// Returns {'missing'} | {'lost', HGETALL} | {'early', ms left} | {'won', HGETALL, emptied slot's gen or ''}.
export const FINISH_LUA = `${WITH_SCHEMA_LUA}
-- The record is read once (issue #19 goal 2): every field the script needs comes from this one HGETALL, and the
-- ended record (reply and inbox entry) is built from it here instead of being read back after the writes.
local pending = redis.call('HGETALL', KEYS[1])
if #pending == 0 then return {'missing'} end
local f = {}
for i = 1, #pending, 2 do f[pending[i]] = pending[i + 1] end
if f.state ~= 'pending' then return {'lost', withSchema(pending, ARGV[13])} end
local t = redis.call('TIME')
local endedAt = t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000))
if ARGV[14] == '1' then
  local left = tonumber(f.deadline or '0') - tonumber(endedAt)
  if left > 0 then return {'early', string.format('%d', left)} end
end
local ends = {'state', ARGV[1], 'outcome', ARGV[2], 'reason', ARGV[3], 'endedAt', endedAt}
if ARGV[7] ~= '' then ends[#ends + 1] = 'endedBy'; ends[#ends + 1] = ARGV[7] end
local replaced = {state = true, outcome = true, reason = true, endedAt = true, endedBy = true}
local record, drafts = {}, {}
for i = 1, #pending, 2 do
  local field = pending[i]
  if string.sub(field, 1, 6) == 'draft:' then drafts[#drafts + 1] = field
  elseif not replaced[field] then
    record[#record + 1] = field
    record[#record + 1] = pending[i + 1]
  end
end
redis.call('HSET', KEYS[1], unpack(ends))
if #drafts > 0 then redis.call('HDEL', KEYS[1], unpack(drafts)) end
for i = 1, #ends do record[#record + 1] = ends[i] end
redis.call('EXPIRE', KEYS[1], ARGV[4])
if f.schemaRef then redis.call('EXPIRE', ARGV[13] .. f.schemaRef, ARGV[4], 'GT') end
record = withSchema(record, ARGV[13])
local holder = f.holder or ''
local userId = f.userId or ''
if holder ~= ARGV[8] then
  local inbox = ARGV[10] .. holder
  redis.call('XADD', inbox, 'MAXLEN', '~', ARGV[5], '*', unpack(record))
  redis.call('EXPIRE', inbox, ARGV[4])
end
local round = {}
if f.round then round = {'round', '1'} end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[9], '*', 'id', ARGV[6], 'state', ARGV[1], unpack(round))
redis.call('ZREM', ARGV[11] .. holder, ARGV[6])
redis.call('ZREM', ARGV[12] .. userId, ARGV[6])
redis.call('ZREM', KEYS[3], ARGV[6])
redis.call('HDEL', KEYS[4], ARGV[6])
local emptied = ''
if ARGV[14] ~= '1' then
  local w = tonumber(ARGV[16])
  local slot = math.floor(tonumber(f.deadline or '0') / w)
  local first = string.format('%d', slot * w)
  if redis.call('ZCOUNT', KEYS[3], first, '(' .. string.format('%d', (slot + 1) * w)) == 0 then
    local marker = ARGV[15] .. string.format('%d', slot)
    emptied = redis.call('HGET', marker, 'g') or ''
    if emptied ~= '' and ARGV[17] ~= '1' then redis.call('DEL', marker) end
  end
end
return {'won', record, emptied}
`;

// Writes a new pending question in one step, dated by Redis TIME: the record with its expiry (timeout plus
// retention, in case every timer is lost) and its entries in the holder's and each answerer's pending index.
// The shared schema (store/schemas.ts) is written, or its expiry pushed to at least the record's, in the same step.
// The question also enters the due index, and its deadline slot (store/slots.ts) gets a marker (hash: g, the gen
// of the slot's timeout job; w, when that job is due) unless it has one: the caller adds that job only when this
// create opened the slot, and moves it earlier when this deadline is before w (w is lowered here).
// KEYS[1] question hash  KEYS[2] the due index  KEYS[3..] pending zsets of the holder, the person and answerers
// ARGV[1] timeout ms  ARGV[2] retention ms  ARGV[3] question id  ARGV[4] schema key ('' when it is inline)
// ARGV[5] schema JSON  ARGV[6] slot marker key prefix  ARGV[7] slot width ms  ARGV[8] a fresh gen
// ARGV[9..] the record's other field/value pairs.
// Returns {creation time (epoch ms on the Redis clock), 1 opened the slot | 2 lowered its w | 0, the slot's gen}.
export const CREATE_LUA = `
local t = redis.call('TIME')
local now = t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000))
local deadline = string.format('%d', tonumber(now) + tonumber(ARGV[1]))
local ttl = string.format('%d', tonumber(ARGV[1]) + tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], 'createdAt', now, 'deadline', deadline, unpack(ARGV, 9))
redis.call('PEXPIRE', KEYS[1], ttl)
if ARGV[4] ~= '' and redis.call('PTTL', ARGV[4]) < tonumber(ttl) then
  redis.call('SET', ARGV[4], ARGV[5], 'PX', ttl)
end
for i = 2, #KEYS do redis.call('ZADD', KEYS[i], deadline, ARGV[3]) end
local width = tonumber(ARGV[7])
local slot = math.floor(tonumber(deadline) / width)
local marker = ARGV[6] .. string.format('%d', slot)
local gen = redis.call('HGET', marker, 'g')
if not gen then
  -- The marker outlives every record of its slot: each expires by its deadline (< the slot's end) + retention.
  local markerTtl = string.format('%d', (slot + 1) * width - tonumber(now) + tonumber(ARGV[2]))
  redis.call('HSET', marker, 'g', ARGV[8], 'w', deadline)
  redis.call('PEXPIRE', marker, markerTtl)
  return {now, 1, ARGV[8]}
end
local w = tonumber(redis.call('HGET', marker, 'w') or deadline)
if tonumber(deadline) < w then
  redis.call('HSET', marker, 'w', deadline)
  return {now, 2, gen}
end
return {now, 0, gen}
`;

// Reads records in one step, each with its shared schema put back. KEYS: question hashes; ARGV[1] schema key
// prefix. Returns one flat HGETALL reply per key (empty for a missing one).
export const READ_LUA = `${WITH_SCHEMA_LUA}
local out = {}
for i = 1, #KEYS do out[i] = withSchema(redis.call('HGETALL', KEYS[i]), ARGV[1]) end
return out
`;

// Sets the cards only while the question exists, so a late attach cannot resurrect an expired record. Returns
// the question's state (0 when it is gone): attach and finish are ordered on one key, so when the state is no
// longer pending the finish ran first, saw no card, and the attacher must update the cards. That is marked
// (cardAfterEnd) when the cards come after the end, so an attach tried again after its answer was lost tells
// the two apart: ended with the cards already there means the finish saw them, and 'ended_with_card' is
// returned (its winner updates the cards). ARGV[1], ARGV[2]: the first card's channel and ts; ARGV[3], when
// given: the other cards' JSON.
export const ATTACH_CARD_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'pending' and redis.call('HEXISTS', KEYS[1], 'cardTs') == 0 then
  redis.call('HSET', KEYS[1], 'cardAfterEnd', '1')
end
redis.call('HSET', KEYS[1], 'cardChannel', ARGV[1], 'cardTs', ARGV[2])
if ARGV[3] then redis.call('HSET', KEYS[1], 'moreCards', ARGV[3]) end
if state ~= 'pending' and redis.call('HEXISTS', KEYS[1], 'cardAfterEnd') == 0 then return 'ended_with_card' end
return state
`;

// Keeps one person's draft of a form (field draft:<userId>), only while the question is pending; the finish
// script drops every draft. KEYS[1] question; ARGV[1] field; ARGV[2] draft JSON. Returns 1 when stored, 0 when
// the question is gone or ended.
export const SAVE_DRAFT_LUA = `
if redis.call('HGET', KEYS[1], 'state') ~= 'pending' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

// Acquires or renews a lease and (re)registers the holder for sweeping in one step, so a registered holder
// always had a lease at some point. It also reads the deployment's epoch, a random value set once: when it is
// gone, Redis lost its data (restart without persistence, failover), and this call sets a new one.
// KEYS[1] lease  KEYS[2] holders set  KEYS[3] epoch; ARGV[1] ttl ms  ARGV[2] holder  ARGV[3] epoch if unset.
// Returns {1 if the lease was still there (a renewal) else 0, the epoch}.
export const LEASE_LUA = `
local had = redis.call('EXISTS', KEYS[1])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
local epoch = redis.call('GET', KEYS[3])
if not epoch then
  epoch = ARGV[3]
  redis.call('SET', KEYS[3], epoch)
end
return {had, epoch}
`;

// Forgets a dead holder once nothing of it is left; a renewal in between keeps it registered.
// KEYS[1] lease  KEYS[2] holder's pending zset  KEYS[3] holders set; ARGV[1] holder.
export const FORGET_HOLDER_LUA = `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('ZCARD', KEYS[2]) > 0 then return 0 end
redis.call('SREM', KEYS[3], ARGV[1])
return 1
`;

// Fixed-window counter: the window starts with its first request and lasts ARGV[2] ms. Refused requests count
// too, which does not matter for a fixed window. KEYS[1] counter; ARGV[1] max  ARGV[2] window ms.
// Returns {1, 0} when admitted, {0, ms until the window ends} when refused.
export const ADMIT_LUA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n > tonumber(ARGV[1]) then return {0, redis.call('PTTL', KEYS[1])} end
return {1, 0}
`;

// The holder's acknowledgement of a batch of inbox entries it has handed over. An accepted answer's content is
// needed only until the holder has handed it to the MCP server; after that the record keeps that it was
// accepted, not what was answered. So this drops the content of the accepted ones and deletes the entries, in one step so an entry is never deleted with its content
// still kept. KEYS[1] inbox stream, KEYS[2..] question keys of accepted ones; ARGV entry ids. Returns XDEL's count.
export const INBOX_ACK_LUA = `
for i = 2, #KEYS do
  if redis.call('HGET', KEYS[i], 'state') == 'accepted' then
    redis.call('HSET', KEYS[i], 'outcome', '${DROPPED_OUTCOME}')
  end
end
return redis.call('XDEL', KEYS[1], unpack(ARGV))
`;

export interface StoreScripts {
  /** CREATE_LUA: (numberOfKeys, questionKey, dueKey, heldKey?, ...userKeys, timeoutMs, retentionMs, id, schemaKey, schemaJson, slotPrefix, slotMs, gen, ...fieldValuePairs). */
  questionCreate(numberOfKeys: number, ...args: (string | number)[]): Promise<unknown>;
  /** FINISH_LUA: (questionKey, endedKey, dueKey, rescuesKey, state, outcomeJson, reason, retentionSec, inboxMaxLen, id, endedBy, detachedHolder, endedMaxLen, inboxPrefix, heldPrefix, userPrefix, schemaPrefix, byTimeoutJob, slotPrefix, slotMs, keepEmptied). */
  questionFinish(...args: (string | number)[]): Promise<unknown>;
  /** SLOT_NEXT_LUA: (dueKey, markerKey, slotStartMs, slotMs, gen, batch, ...handedOverIds). */
  slotNext(...args: (string | number)[]): Promise<unknown>;
  /** SLOT_RESCUE_LUA: (dueKey, rescuesKey, slotPrefix, slotMs, overdueMs, ttlMs, maxRescues, ...gens). */
  slotRescue(...args: (string | number)[]): Promise<unknown>;
  /** SLOT_DROP_LUA: (dueKey, markerKey, slotStartMs, slotMs, gen). */
  slotDrop(...args: (string | number)[]): Promise<unknown>;
  /** SLOT_RELEASE_LUA: (markerKey, gen). */
  slotRelease(...args: string[]): Promise<unknown>;
  /** SLOT_WAKE_LUA: (markerKey, gen). */
  slotWake(...args: string[]): Promise<unknown>;
  /** READ_LUA: (numberOfKeys, ...questionKeys, schemaPrefix). */
  questionRead(numberOfKeys: number, ...args: string[]): Promise<unknown>;
  /** INBOX_ACK_LUA: (numberOfKeys, inboxKey, ...acceptedQuestionKeys, ...entryIds). */
  inboxAck(numberOfKeys: number, ...args: string[]): Promise<unknown>;
  /** ATTACH_CARD_LUA: (questionKey, channel, ts). */
  questionAttachCard(...args: string[]): Promise<unknown>;
  /** SAVE_DRAFT_LUA: (questionKey, draftField, draftJson). */
  questionSaveDraft(...args: string[]): Promise<unknown>;
  /** LEASE_LUA: (leaseKey, holdersKey, epochKey, ttlMs, holder, newEpoch). */
  holderLease(...args: (string | number)[]): Promise<unknown>;
  /** FORGET_HOLDER_LUA: (leaseKey, heldKey, holdersKey, holder). */
  holderForget(...args: string[]): Promise<unknown>;
  /** ADMIT_LUA: (counterKey, max, windowMs). */
  serverAdmit(...args: (string | number)[]): Promise<unknown>;
}

/** Registers the scripts on a client; ioredis then runs them by EVALSHA, loading them when Redis lacks them. */
export function withScripts(redis: RedisClient): RedisClient & StoreScripts {
  redis.defineCommand('questionCreate', { lua: CREATE_LUA });
  redis.defineCommand('questionFinish', { numberOfKeys: 4, lua: FINISH_LUA });
  redis.defineCommand('slotNext', { numberOfKeys: 2, lua: SLOT_NEXT_LUA });
  redis.defineCommand('slotRescue', { numberOfKeys: 2, lua: SLOT_RESCUE_LUA });
  redis.defineCommand('slotDrop', { numberOfKeys: 2, lua: SLOT_DROP_LUA });
  redis.defineCommand('slotRelease', { numberOfKeys: 1, lua: SLOT_RELEASE_LUA });
  redis.defineCommand('slotWake', { numberOfKeys: 1, lua: SLOT_WAKE_LUA });
  redis.defineCommand('questionRead', { lua: READ_LUA });
  redis.defineCommand('inboxAck', { lua: INBOX_ACK_LUA });
  redis.defineCommand('questionAttachCard', { numberOfKeys: 1, lua: ATTACH_CARD_LUA });
  redis.defineCommand('questionSaveDraft', { numberOfKeys: 1, lua: SAVE_DRAFT_LUA });
  redis.defineCommand('holderLease', { numberOfKeys: 3, lua: LEASE_LUA });
  redis.defineCommand('holderForget', { numberOfKeys: 3, lua: FORGET_HOLDER_LUA });
  redis.defineCommand('serverAdmit', { numberOfKeys: 1, lua: ADMIT_LUA });
  return redis as RedisClient & StoreScripts;
}
