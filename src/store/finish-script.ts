// Records as the scripts handle them: fieldsOf turns a flat HGETALL reply into a field -> value table;
// recordJson makes such a table the JSON the scripts send, its shared schema put back (store/schemas.ts) under
// requestedSchema. `schemaPrefix` is the schema key without its ref, which shares the question's `{q}` hash tag,
// so on a Cluster it is on the node that runs the script.
export const RECORD_JSON_LUA = `
local function fieldsOf(flat)
  local record = {}
  for i = 1, #flat, 2 do record[flat[i]] = flat[i + 1] end
  return record
end
local function recordJson(record, schemaPrefix)
  if record.schemaRef then
    local json = redis.call('GET', schemaPrefix .. record.schemaRef)
    if json then record.requestedSchema = json end
  end
  return cjson.encode(record)
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
// ARGV[5] how long (ms) an inbox keeps an entry unread  ARGV[6] question id  ARGV[7] who ended it ('' for nobody)
// ARGV[8] the holder that means nobody waits (no inbox entry)  ARGV[9] approximate ended-stream length cap
// ARGV[10] inbox key prefix (+ holder)  ARGV[11] holder's pending zset prefix  ARGV[12] person's zset prefix
// ARGV[13] schema key prefix (+ ref): the record's shared schema is kept at least as long as the record now is.
// ARGV[14] '1' when a timeout job ends it: a pending question whose deadline is still ahead on Redis TIME is left
// as it is (the job fired early by its worker's clock), checked here rather than by one more round trip first.
// The inbox entry carries the ended record itself ('r', see RECORD_JSON_FIELD), so the holder reads it with the
// entry instead of one HGETALL per question; it names the question ('id') too, which is all a reader that
// predates 'r' uses (it reads the record then), so replicas of both versions can share a deployment.
// Every win is announced on the ended stream ({id, state}, and round: 1 for a durable round's question, whose
// answer the rounds group records): long-polls, webhooks and the audit follow it.
// ARGV[15] slot marker key prefix (+ slot number)  ARGV[16] slot width ms  ARGV[17] '1' to keep an emptied slot.
// The winner leaves the due index; when it was the last of its deadline slot (and the slot's own timeout job is
// not the one ending it, ARGV[14]), the slot's gen is returned so the caller can drop its job without reading
// first. The marker is deleted here unless ARGV[17] is '1': then the caller drops the slot later, if it is still
// empty (store/slot-drops.ts), and a create meanwhile joins the slot and its job instead of adding one.
// KEYS[4] the rescue counts (store/slot-rescue.ts): the winner's count, if it has one, goes with it.
// KEYS[5] the holders set  ARGV[19] lease key prefix (+ holder)  ARGV[20] '1' for a person's act (answered,
// declined, closed): when the question's holder took a lease (it is in the holders set) that has lapsed, the
// holder died with the call that waits for the answer, and nobody can receive it: the question ends as the
// orphan sweep would end it (cancel, holder_lost) instead of recording an answer that goes nowhere.
// ARGV[18] this finish call's own random id, kept in the record ('act'): the same call run again (ioredis sends a
// command again after a reconnect when its reply was lost) finds its own win and answers 'won' again, so the
// caller that won still counts the end, updates the card and tells the person, instead of reading 'lost'.
// Returns {'missing'} | {'lost', record JSON} | {'early', ms left} | {'won', record JSON, emptied slot's gen or ''}.
//
// On a Cluster whose {q} slot is being migrated, a key already moved to the other node fails the script at its
// first touch. The keys named from the record are touched (EXISTS) before the first write, so such a failure
// comes before anything is written: the finish is refused whole and tried again, never half-applied.
//
// Records leave the script as one JSON object of strings (cjson.encode), not as a flat field/value array: the
// client decodes one reply string and runs one native JSON.parse instead of decoding two RESP strings per field,
// which was the largest share of a lifecycle's CPU in the holder (issue #19 goals 2 and 3).
export const FINISH_LUA = `${RECORD_JSON_LUA}
-- The record is read once (issue #19 goal 2): every field the script needs comes from this one HGETALL, and the
-- ended record (reply and inbox entry) is built from it here instead of being read back after the writes.
local pending = redis.call('HGETALL', KEYS[1])
if #pending == 0 then return {'missing'} end
local f = fieldsOf(pending)
if f.state ~= 'pending' then
  if ARGV[18] ~= '' and f.act == ARGV[18] then return {'won', recordJson(f, ARGV[13]), ''} end
  return {'lost', recordJson(f, ARGV[13])}
end
local t = redis.call('TIME')
local endedAt = t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000))
if ARGV[14] == '1' then
  local left = tonumber(f.deadline or '0') - tonumber(endedAt)
  if left > 0 then return {'early', string.format('%d', left)} end
end
local holder = f.holder or ''
local userId = f.userId or ''
local state, outcome, reason, endedBy = ARGV[1], ARGV[2], ARGV[3], ARGV[7]
if ARGV[20] == '1' and holder ~= ARGV[8] and not f.round and redis.call('EXISTS', ARGV[19] .. holder) == 0
  and redis.call('SISMEMBER', KEYS[5], holder) == 1 then
  state, outcome, reason, endedBy = 'cancelled', '{"action":"cancel"}', 'holder_lost', ''
end
local slot = math.floor(tonumber(f.deadline or '0') / tonumber(ARGV[16]))
local marker = ARGV[15] .. string.format('%d', slot)
local touched = {ARGV[11] .. holder, ARGV[12] .. userId, marker}
if holder ~= ARGV[8] then touched[#touched + 1] = ARGV[10] .. holder end
if f.schemaRef then touched[#touched + 1] = ARGV[13] .. f.schemaRef end
redis.call('EXISTS', unpack(touched))
local ends = {'state', state, 'outcome', outcome, 'reason', reason, 'endedAt', endedAt, 'act', ARGV[18]}
if endedBy ~= '' then ends[#ends + 1] = 'endedBy'; ends[#ends + 1] = endedBy end
local drafts = {}
for i = 1, #pending, 2 do
  if string.sub(pending[i], 1, 6) == 'draft:' then
    drafts[#drafts + 1] = pending[i]
    f[pending[i]] = nil
  end
end
redis.call('HSET', KEYS[1], unpack(ends))
if #drafts > 0 then redis.call('HDEL', KEYS[1], unpack(drafts)) end
for i = 1, #ends, 2 do f[ends[i]] = ends[i + 1] end
redis.call('EXPIRE', KEYS[1], ARGV[4])
if f.schemaRef then redis.call('EXPIRE', ARGV[13] .. f.schemaRef, ARGV[4], 'GT') end
local record = recordJson(f, ARGV[13])
if holder ~= ARGV[8] then
  local inbox = ARGV[10] .. holder
  local keepFrom = string.format('%d', tonumber(endedAt) - tonumber(ARGV[5]))
  redis.call('XADD', inbox, 'MINID', keepFrom, '*', 'id', ARGV[6], 'r', record)
  redis.call('EXPIRE', inbox, ARGV[4])
end
local round = {}
if f.round then round = {'round', '1'} end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[9], '*', 'id', ARGV[6], 'state', state, unpack(round))
redis.call('ZREM', ARGV[11] .. holder, ARGV[6])
redis.call('ZREM', ARGV[12] .. userId, ARGV[6])
redis.call('ZREM', KEYS[3], ARGV[6])
redis.call('HDEL', KEYS[4], ARGV[6])
local emptied = ''
if ARGV[14] ~= '1' then
  local w = tonumber(ARGV[16])
  local first = string.format('%d', slot * w)
  if redis.call('ZCOUNT', KEYS[3], first, '(' .. string.format('%d', (slot + 1) * w)) == 0 then
    emptied = redis.call('HGET', marker, 'g') or ''
    if emptied ~= '' and ARGV[17] ~= '1' then redis.call('DEL', marker) end
  end
end
return {'won', record, emptied}
`;

/** The inbox entry's field holding the ended record as JSON (FINISH_LUA); entries without it name only 'id'. */
export const RECORD_JSON_FIELD = 'r';
