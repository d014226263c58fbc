// Rounds in Redis (key families `round:<id>`, `round:<id>:requests`, `round:<id>:answers`, `rounds:open` in
// redis/layout.ts, all under the `{q}` hash tag so each script's keys share a Cluster slot). Every step that
// reads and writes is one Lua script, so two replicas recording the last two answers at once claim the retry
// once. The round hash holds the call (JSON fields), `requestState` (present only when the server sent one),
// the round number, status, holder, claimant, lease and each request's question (`question:<key>`); the requests
// hash maps key → the entry's JSON, the answers hash key → the answer's JSON. All expire ROUND_GRACE_MS after
// the deadline.
import { randomBytes } from 'node:crypto';
import { StoreError, type Keys, type RedisClient } from '../redis/index.js';
import { originOf, parseRound } from './redis-record.js';
import {
  ROUND_GRACE_MS,
  type AnswerRecorded,
  type Claim,
  type NewRound,
  type NextRound,
  type Round,
  type RoundRequest,
  type RoundStore,
} from './types.js';

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
const ANSWER_LUA = `${HOLDER_ALIVE(6)}
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
const TAKE_OVER_LUA = `${HOLDER_ALIVE(5)}
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
const RENEW_LUA = `${HELD}
redis.call('HSET', KEYS[1], 'leaseUntil', ARGV[2])
return 1
`;

// KEYS[1] round  KEYS[2] requests  KEYS[3] answers  KEYS[4] open set
// ARGV[1] claimant  ARGV[2] id  ARGV[3] requestState  ARGV[4] '1' when there is one  ARGV[5] key order JSON
// ARGV[6] deadline  ARGV[7] expiry (epoch ms)  ARGV[8] the questions already asked, JSON {question:<key>: id}
// ARGV[9..] request key, request JSON pairs. The questions are written here, not after: a round finished or
// expired meanwhile would otherwise be made again by that write, without its expiry.
const NEXT_LUA = `${HELD}
for _, key in ipairs(cjson.decode(redis.call('HGET', KEYS[1], 'order'))) do
  redis.call('HDEL', KEYS[1], 'question:' .. key)
end
for field, id in pairs(cjson.decode(ARGV[8])) do redis.call('HSET', KEYS[1], field, id) end
redis.call('DEL', KEYS[2], KEYS[3])
for i = 9, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('HINCRBY', KEYS[1], 'round', 1)
redis.call('HSET', KEYS[1], 'status', 'waiting', 'order', ARGV[5], 'deadline', ARGV[6], 'holder', ARGV[1])
redis.call('HDEL', KEYS[1], 'claimant', 'leaseUntil')
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'requestState', ARGV[3])
else redis.call('HDEL', KEYS[1], 'requestState') end
redis.call('PEXPIREAT', KEYS[1], ARGV[7])
redis.call('PEXPIREAT', KEYS[2], ARGV[7])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[2])
return 1
`;

// KEYS[1] round  KEYS[2] requests  KEYS[3] answers  KEYS[4] open set  ARGV[1] claimant  ARGV[2] id
// The claimant, or the holder of a round still waiting (its call failed while asking), may finish it.
const FINISH_LUA = `
local r = redis.call('HMGET', KEYS[1], 'status', 'claimant', 'holder')
local claimed = r[1] == 'claimed' and r[2] == ARGV[1]
if not claimed and not (r[1] == 'waiting' and r[3] == ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[2])
return 1
`;

// KEYS[1] round  KEYS[2] requests  ARGV[1] round number  ARGV[2] key  ARGV[3] question id
const ATTACH_LUA = `
if redis.call('HGET', KEYS[1], 'round') ~= ARGV[1] then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'question:' .. ARGV[2], ARGV[3])
return 1
`;

export interface RedisRoundStoreOptions {
  /** A command connection from the deployment's RedisConnections. */
  redis: RedisClient;
  keys: Keys;
}

export class RedisRoundStore implements RoundStore {
  constructor(private readonly opts: RedisRoundStoreOptions) {}

  async open(round: NewRound): Promise<Round> {
    const { redis, keys } = this.opts;
    const id = `round_${randomBytes(15).toString('base64url')}`;
    const fields = {
      server: round.server,
      tool: round.tool,
      args: JSON.stringify(round.args),
      origin: JSON.stringify(round.origin),
      round: round.round,
      deadline: round.deadline,
      status: 'waiting',
      order: JSON.stringify(round.requests.map((request) => request.key)),
      ...(round.requestState === undefined ? {} : { requestState: round.requestState }),
      ...(round.holder === undefined ? {} : { holder: round.holder }),
      ...questionFields(round.requests),
    };
    const expireAt = round.deadline + ROUND_GRACE_MS;
    const write = redis.multi().hset(keys.round(id), fields).pexpireat(keys.round(id), expireAt);
    // A round may ask nothing (the spec lets the client retry at once); HSET refuses an empty hash.
    if (round.requests.length > 0) {
      write
        .hset(keys.roundRequests(id), requestFields(round.requests))
        .pexpireat(keys.roundRequests(id), expireAt);
    }
    await write.zadd(keys.openRounds, round.deadline, id).exec();
    return { ...structuredClone(round), id, status: 'waiting', answers: {} };
  }

  async get(id: string): Promise<Round | undefined> {
    const { redis, keys } = this.opts;
    const [hash, requests, answers] = await Promise.all([
      redis.hgetall(keys.round(id)),
      redis.hgetall(keys.roundRequests(id)),
      redis.hgetall(keys.roundAnswers(id)),
    ]);
    return parseRound(id, hash, requests, answers);
  }

  async attachQuestion(id: string, round: number, key: string, questionId: string): Promise<boolean> {
    const { redis, keys } = this.opts;
    const done = await redis.eval(
      ATTACH_LUA,
      2,
      keys.round(id),
      keys.roundRequests(id),
      round,
      key,
      questionId,
    );
    return done === 1;
  }

  async answer(
    id: string,
    round: number,
    key: string,
    answer: unknown,
    claim: Claim | undefined,
  ): Promise<AnswerRecorded> {
    const { redis, keys } = this.opts;
    const recorded = await redis.eval(
      ANSWER_LUA,
      3,
      keys.round(id),
      keys.roundRequests(id),
      keys.roundAnswers(id),
      claim?.claimant ?? '',
      round,
      key,
      JSON.stringify(answer),
      claim === undefined ? 0 : claim.now + claim.leaseMs,
      keys.lease(''),
    );
    return toRecorded(recorded);
  }

  async takeOver(claim: Claim): Promise<Round[]> {
    const { redis, keys } = this.opts;
    const ids = await redis.zrange(keys.openRounds, '0', '-1');
    const taken: Round[] = [];
    for (const id of ids) {
      const claimed = await redis.eval(
        TAKE_OVER_LUA,
        4,
        ...this.roundKeys(id),
        claim.claimant,
        claim.now,
        claim.now + claim.leaseMs,
        id,
        keys.lease(''),
      );
      const round = claimed === 1 ? await this.get(id) : undefined;
      if (round !== undefined) taken.push(round);
    }
    return taken;
  }

  async renew(id: string, claim: Claim): Promise<boolean> {
    const renewed = await this.opts.redis.eval(
      RENEW_LUA,
      1,
      this.opts.keys.round(id),
      claim.claimant,
      claim.now + claim.leaseMs,
    );
    return renewed === 1;
  }

  async next(id: string, claimant: string, next: NextRound): Promise<boolean> {
    const pairs = Object.entries(requestFields(next.requests)).flat();
    const moved = await this.opts.redis.eval(
      NEXT_LUA,
      4,
      ...this.roundKeys(id),
      claimant,
      id,
      next.requestState ?? '',
      next.requestState === undefined ? '0' : '1',
      JSON.stringify(next.requests.map((request) => request.key)),
      next.deadline,
      next.deadline + ROUND_GRACE_MS,
      JSON.stringify(questionFields(next.requests)),
      ...pairs,
    );
    return moved === 1;
  }

  async finish(id: string, claimant: string): Promise<boolean> {
    const done = await this.opts.redis.eval(FINISH_LUA, 4, ...this.roundKeys(id), claimant, id);
    return done === 1;
  }

  async ofCall(callId: string): Promise<Round | undefined> {
    const { redis, keys } = this.opts;
    for (const id of await redis.zrange(keys.openRounds, '0', '-1')) {
      const origin = await redis.hget(keys.round(id), 'origin');
      if (origin !== null && originOf(id, origin).callId === callId) return this.get(id);
    }
    return undefined;
  }

  private roundKeys(id: string): [string, string, string, string] {
    const { keys } = this.opts;
    return [keys.round(id), keys.roundRequests(id), keys.roundAnswers(id), keys.openRounds];
  }
}

function requestFields(requests: RoundRequest[]): Record<string, string> {
  return Object.fromEntries(requests.map((request) => [request.key, JSON.stringify(request.request)]));
}

function questionFields(requests: RoundRequest[]): Record<string, string> {
  const asked = requests.filter((request) => request.questionId !== undefined);
  return Object.fromEntries(asked.map((request) => [`question:${request.key}`, request.questionId ?? '']));
}

const RECORDED: readonly AnswerRecorded[] = ['claimed', 'recorded', 'stale', 'missing'];

function toRecorded(reply: unknown): AnswerRecorded {
  const found = RECORDED.find((word) => word === reply);
  if (found === undefined)
    throw new StoreError('redis_error', `unexpected answer script reply: ${String(reply)}`);
  return found;
}
