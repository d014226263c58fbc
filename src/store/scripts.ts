import { HotScript, type RedisClient } from '../redis/index.js';
import { FINISH_LUA, RECORD_JSON_LUA } from './finish-script.js';
import { DUE_OLDEST_LUA } from './overdue.js';
import {
  SLOT_DROP_LUA,
  SLOT_NEXT_LUA,
  SLOT_RELEASE_LUA,
  SLOT_RESCUE_LUA,
  SLOT_WAKE_LUA,
} from './slot-scripts.js';

/** The stored outcome of an accepted question once its content was dropped (see record.ts). */
export const DROPPED_OUTCOME = '{"action":"accept","contentDropped":true}';

// Writes a new pending question in one step, dated by Redis TIME: the record with its expiry (timeout plus
// retention, in case every timer is lost) and its entries in the holder's and each answerer's pending index.
// The shared schema (store/schemas.ts) is written, or its expiry pushed to at least the record's, in the same step.
// The question also enters the due index, and its deadline slot (store/slots.ts) gets a marker (hash: g, the gen
// of the slot's timeout job; w, when that job is due) unless it has one: the caller adds that job only when this
// create opened the slot, and moves it earlier when this deadline is before w (w is lowered here).
// KEYS[1] question hash  KEYS[2] the due index  KEYS[3..] pending zsets of the holder, the person and answerers
// ARGV[1] timeout ms  ARGV[2] retention ms  ARGV[3] question id  ARGV[4] schema key ('' when it is inline)
// ARGV[5] schema JSON  ARGV[6] slot marker key prefix  ARGV[7] slot width ms  ARGV[8] a fresh gen
// ARGV[9] the record's other fields as one JSON object of strings (record.ts fieldsJson).
// Returns {creation time (epoch ms on the Redis clock), 1 opened the slot | 2 lowered its w | 0, the slot's gen}.
export const CREATE_LUA = `
local t = redis.call('TIME')
local now = t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000))
local deadline = string.format('%d', tonumber(now) + tonumber(ARGV[1]))
local ttl = string.format('%d', tonumber(ARGV[1]) + tonumber(ARGV[2]))
local fields = {'createdAt', now, 'deadline', deadline}
for field, value in pairs(cjson.decode(ARGV[9])) do
  fields[#fields + 1] = field
  fields[#fields + 1] = value
end
redis.call('HSET', KEYS[1], unpack(fields))
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
// prefix. Returns one JSON object of strings per key ('{}' for a missing one), as FINISH_LUA sends its records.
export const READ_LUA = `${RECORD_JSON_LUA}
local out = {}
for i = 1, #KEYS do out[i] = recordJson(fieldsOf(redis.call('HGETALL', KEYS[i])), ARGV[1]) end
return out
`;

// Sets the cards only while the question exists, so a late attach cannot resurrect an expired record. Returns
// the question's state (0 when it is gone): attach and finish are ordered on one key, so when the state is no
// longer pending the finish ran first, saw no card, and the attacher must update the cards. That is marked
// (cardAfterEnd) when the cards come after the end, so an attach tried again after its answer was lost tells
// the two apart: ended with the cards already there means the finish saw them, and 'ended_with_card' is
// returned (its winner updates the cards). The attacher then draws the end from the record, whose accepted
// content the holder's acknowledgement keeps for it until CARD_END_SHOWN_LUA (see INBOX_ACK_LUA).
// ARGV[1], ARGV[2]: the first card's channel and ts; ARGV[3], when given: the other cards' JSON.
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

// The holder's acknowledgement of a batch of inbox entries it has handed over, in one step so an entry is never
// deleted with its content's fate undecided. An accepted answer's content is needed until the holder has handed
// it to the MCP server AND the question's card shows the answer; after both the record keeps that it was
// accepted, not what was answered. Who draws the card's end decides which of the two comes last:
// - the finish saw the card (cardTs, no cardAfterEnd): its winner drew the end from the finish's own reply, so
//   the content is dropped here (DROPPED_OUTCOME);
// - the finish saw none (a click beat the card's attach by milliseconds): the card's poster draws the end from
//   the record once its attach returns the ended state (relay/card-delivery.ts). Dropping here would leave it
//   an answer of {} ("Answered by … ·" with no answer lines). Unless the poster said it drew it already
//   (endShown, CARD_END_SHOWN_LUA), the record is marked (dropAfterCard) and the poster's CARD_END_SHOWN_LUA
//   drops the content once it has drawn the card; a poster that dies first leaves it to the record's expiry
//   (the retention), as does a poster of the previous release, which never calls that script.
// A replica of the previous release acknowledges with its own script, which drops at once (the card may then
// show no answer, as that release did); its records and this one's carry the same fields otherwise.
// KEYS[1] inbox stream, KEYS[2..] question keys of accepted ones whose content is not kept (record.ts
// keepsContent: a round's, an API call's); ARGV entry ids. Returns XDEL's count.
export const INBOX_ACK_LUA = `
for i = 2, #KEYS do
  if redis.call('HGET', KEYS[i], 'state') == 'accepted' then
    local posterDraws = redis.call('HEXISTS', KEYS[i], 'cardTs') == 0 or
      (redis.call('HEXISTS', KEYS[i], 'cardAfterEnd') == 1 and redis.call('HEXISTS', KEYS[i], 'endShown') == 0)
    if posterDraws then
      redis.call('HSET', KEYS[i], 'dropAfterCard', '1')
    else
      redis.call('HSET', KEYS[i], 'outcome', '${DROPPED_OUTCOME}')
    end
  end
end
return redis.call('XDEL', KEYS[1], unpack(ARGV))
`;

// The poster of a question's cards drew its end on them (they were attached after it ended, see INBOX_ACK_LUA):
// an accepted answer its holder has already acknowledged (dropAfterCard) loses its content now; one not yet
// acknowledged is marked (endShown) so that the acknowledgement drops it. A pending or missing question is left
// alone (nothing is written to a record that expired). KEYS[1] question. Returns 1 when the content was dropped.
export const CARD_END_SHOWN_LUA = `
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'accepted' then return 0 end
if redis.call('HEXISTS', KEYS[1], 'dropAfterCard') == 1 then
  redis.call('HSET', KEYS[1], 'outcome', '${DROPPED_OUTCOME}')
  redis.call('HDEL', KEYS[1], 'dropAfterCard')
  return 1
end
redis.call('HSET', KEYS[1], 'endShown', '1')
return 0
`;

export interface StoreScripts {
  /** SLOT_NEXT_LUA: (dueKey, markerKey, slotStartMs, slotMs, gen, batch, readAhead '1' | '0', ...handedOverIds). */
  slotNext(...args: (string | number)[]): Promise<unknown>;
  /** SLOT_RESCUE_LUA: (dueKey, rescuesKey, slotPrefix, slotMs, overdueMs, ttlMs, maxRescues, ...gens, ...aliveJobIds). */
  slotRescue(...args: (string | number)[]): Promise<unknown>;
  /** SLOT_DROP_LUA: (dueKey, markerKey, slotStartMs, slotMs, gen). */
  slotDrop(...args: (string | number)[]): Promise<unknown>;
  /** SLOT_RELEASE_LUA: (markerKey, gen). */
  slotRelease(...args: string[]): Promise<unknown>;
  /** SLOT_WAKE_LUA: (markerKey, gen). */
  slotWake(...args: string[]): Promise<unknown>;
  /** DUE_OLDEST_LUA: (dueKey). */
  dueOldest(dueKey: string): Promise<unknown>;
  /** READ_LUA: (numberOfKeys, ...questionKeys, schemaPrefix). */
  questionRead(numberOfKeys: number, ...args: string[]): Promise<unknown>;
  /** INBOX_ACK_LUA: (numberOfKeys, inboxKey, ...acceptedQuestionKeys, ...entryIds). */
  inboxAck(numberOfKeys: number, ...args: string[]): Promise<unknown>;
  /** ATTACH_CARD_LUA: (questionKey, channel, ts). */
  questionAttachCard(...args: string[]): Promise<unknown>;
  /** CARD_END_SHOWN_LUA: (questionKey). */
  questionEndShown(...args: string[]): Promise<unknown>;
  /** SAVE_DRAFT_LUA: (questionKey, draftField, draftJson). */
  questionSaveDraft(...args: string[]): Promise<unknown>;
  /** LEASE_LUA: (leaseKey, holdersKey, epochKey, ttlMs, holder, newEpoch). */
  holderLease(...args: (string | number)[]): Promise<unknown>;
  /** FORGET_HOLDER_LUA: (leaseKey, heldKey, holdersKey, holder). */
  holderForget(...args: string[]): Promise<unknown>;
  /** ADMIT_LUA: (counterKey, max, windowMs). */
  serverAdmit(...args: (string | number)[]): Promise<unknown>;
}

/**
 * CREATE_LUA: keys (questionKey, dueKey, heldKey?, ...userKeys), then (timeoutMs, retentionMs, id, schemaKey,
 * schemaJson, slotPrefix, slotMs, gen, fieldsJson).
 */
export const CREATE_SCRIPT = new HotScript(CREATE_LUA);
/**
 * FINISH_LUA: keys (questionKey, endedKey, dueKey, rescuesKey, holdersKey), then (state, outcomeJson, reason, retentionSec,
 * inboxKeepMs, id, endedBy, detachedHolder, endedMaxLen, inboxPrefix, heldPrefix, userPrefix, schemaPrefix,
 * byTimeoutJob, slotPrefix, slotMs, keepEmptied, actId, leasePrefix, personAct).
 */
export const FINISH_SCRIPT = new HotScript(FINISH_LUA);

/** Registers the other scripts on a client; ioredis then runs them by EVALSHA, loading them when Redis lacks them. */
export function withScripts(redis: RedisClient): RedisClient & StoreScripts {
  redis.defineCommand('slotNext', { numberOfKeys: 2, lua: SLOT_NEXT_LUA });
  redis.defineCommand('slotRescue', { numberOfKeys: 2, lua: SLOT_RESCUE_LUA });
  redis.defineCommand('slotDrop', { numberOfKeys: 2, lua: SLOT_DROP_LUA });
  redis.defineCommand('slotRelease', { numberOfKeys: 1, lua: SLOT_RELEASE_LUA });
  redis.defineCommand('slotWake', { numberOfKeys: 1, lua: SLOT_WAKE_LUA });
  redis.defineCommand('dueOldest', { numberOfKeys: 1, lua: DUE_OLDEST_LUA });
  redis.defineCommand('questionRead', { lua: READ_LUA });
  redis.defineCommand('inboxAck', { lua: INBOX_ACK_LUA });
  redis.defineCommand('questionAttachCard', { numberOfKeys: 1, lua: ATTACH_CARD_LUA });
  redis.defineCommand('questionEndShown', { numberOfKeys: 1, lua: CARD_END_SHOWN_LUA });
  redis.defineCommand('questionSaveDraft', { numberOfKeys: 1, lua: SAVE_DRAFT_LUA });
  redis.defineCommand('holderLease', { numberOfKeys: 3, lua: LEASE_LUA });
  redis.defineCommand('holderForget', { numberOfKeys: 3, lua: FORGET_HOLDER_LUA });
  redis.defineCommand('serverAdmit', { numberOfKeys: 1, lua: ADMIT_LUA });
  return redis as RedisClient & StoreScripts;
}
