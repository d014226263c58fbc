// API calls in Redis (key families `call:<id>`, `call:<id>:questions`, `calls:running` in redis/layout.ts). A
// call is created `running` by the replica that runs it (its holder) and ends once, through FINISH_CALL_LUA,
// which also announces the end on the deployment's ended stream ({id, state, kind: call}) so that long-polls on
// any replica and the webhooks consumer hear it as they hear question ends. A finished call and its question
// list expire after the retention period.
import { randomBytes } from 'node:crypto';
import { commandError, type Keys, type RedisClient } from '../redis/index.js';

export type CallStatus = 'running' | 'completed' | 'failed';

export interface NewCall {
  client: string;
  server: string;
  tool: string;
  /** The person the call runs for (`as.user`). */
  user: string;
  /** Their workspace (`as.team`), when the bot is installed in several. */
  team?: string;
  callbackUrl?: string;
}

export interface CallRecord extends NewCall {
  id: string;
  status: CallStatus;
  /** The replica running the call. */
  holder: string;
  /** Epoch ms. */
  createdAt: number;
  endedAt?: number;
  /** The tool's CallToolResult, once it answered. */
  result?: Record<string, unknown>;
  /** Why the call failed. */
  error?: string;
  /** The questions the call caused, in order. */
  questions: string[];
}

export type CallEnd =
  | { status: 'completed'; result: Record<string, unknown> }
  | { status: 'failed'; error: string; result?: Record<string, unknown> };

// KEYS[1] call hash  KEYS[2] its question list  KEYS[3] running zset  KEYS[4] ended stream
// ARGV[1] status  ARGV[2] result JSON or ''  ARGV[3] error or ''  ARGV[4] retention s  ARGV[5] id
// ARGV[6] endedAt ms  ARGV[7] approximate ended-stream cap  ARGV[8] the holder it must still have, or ''.
// Returns 1 for the one end that won, else 0.
const FINISH_CALL_LUA = `
local r = redis.call('HMGET', KEYS[1], 'status', 'holder')
if r[1] ~= 'running' or (ARGV[8] ~= '' and r[2] ~= ARGV[8]) then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'endedAt', ARGV[6])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'result', ARGV[2]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'error', ARGV[3]) end
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('ZREM', KEYS[3], ARGV[5])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[7], '*', 'id', ARGV[5], 'state', ARGV[1], 'kind', 'call')
return 1
`;

// KEYS[1] call hash  KEYS[2] its question list  ARGV[1] question id. Lists the question while the call exists,
// with the call's own expiry once it has one (a question can be created as its call ends).
const ADD_QUESTION_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
`;

// KEYS[1] call hash  ARGV[1] new holder. 1 when the call was still running (it is now ARGV[1]'s).
const ADOPT_CALL_LUA = `
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'holder', ARGV[1])
return 1
`;

export interface CallStoreOptions {
  redis: RedisClient;
  keys: Keys;
  /** This replica: the holder of the calls it creates. */
  holderId: string;
  /** How long a finished call is kept, in s. */
  retentionSec: number;
  /** Approximate cap of the ended stream (the store's ENDED_MAX_LEN). */
  endedMaxLen: number;
  now: () => number;
}

/**
 * Runs a step's Redis commands, their failures as StoreErrors (commandError): a connection down is
 * 'redis_unavailable', which the API answers 503 like the question store's, never as a fault of its own.
 */
async function commands<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw commandError(what, err);
  }
}

export class CallStore {
  constructor(private readonly opts: CallStoreOptions) {}

  /** Stores a new running call held by this replica. */
  async create(call: NewCall): Promise<CallRecord> {
    const { redis, keys, holderId, now } = this.opts;
    const id = `call_${randomBytes(15).toString('base64url')}`;
    const fields = { ...call, id, status: 'running' as const, holder: holderId, createdAt: now() };
    // exec() answers a command's failure in its result, not by rejecting; a failed connection rejects.
    const results = await commands('call create', () =>
      redis.multi().hset(keys.call(id), fields).zadd(keys.runningCalls, fields.createdAt, id).exec(),
    );
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (failed) throw commandError('call create', failed);
    return { ...fields, questions: [] };
  }

  async get(id: string): Promise<CallRecord | undefined> {
    const { redis, keys } = this.opts;
    const [hash, questions] = await commands('call read', () =>
      Promise.all([redis.hgetall(keys.call(id)), redis.lrange(keys.callQuestions(id), 0, -1)]),
    );
    return parseCall(hash, questions);
  }

  /**
   * Ends a running call; true for the one end that won (a call ends once, whoever tries). With `holder`, only
   * while the call still has that holder (a sweep ending a dead holder's call loses to a replica adopting it).
   */
  async finish(id: string, end: CallEnd, holder?: string): Promise<boolean> {
    const { redis, keys, retentionSec, endedMaxLen, now } = this.opts;
    const won = await commands('call finish', () =>
      redis.eval(
        FINISH_CALL_LUA,
        4,
        keys.call(id),
        keys.callQuestions(id),
        keys.runningCalls,
        keys.ended,
        end.status,
        end.result === undefined ? '' : JSON.stringify(end.result),
        end.status === 'failed' ? end.error : '',
        retentionSec,
        id,
        now(),
        endedMaxLen,
        holder ?? '',
      ),
    );
    return won === 1;
  }

  /** This replica runs the running call `id` from now on (it resumed the call's round); false when it ended. */
  async adopt(id: string): Promise<boolean> {
    const { redis, keys, holderId } = this.opts;
    return (await commands('call adopt', () => redis.eval(ADOPT_CALL_LUA, 1, keys.call(id), holderId))) === 1;
  }

  /** Lists question `questionId` on call `callId` (nothing when the call is gone). */
  async addQuestion(callId: string, questionId: string): Promise<void> {
    const { redis, keys } = this.opts;
    await commands('call question', () =>
      redis.eval(ADD_QUESTION_LUA, 2, keys.call(callId), keys.callQuestions(callId), questionId),
    );
  }

  /** Running calls whose holder's lease has lapsed: the replica running them is gone. */
  orphaned(): Promise<CallRecord[]> {
    return commands('call sweep', () => this.readOrphaned());
  }

  private async readOrphaned(): Promise<CallRecord[]> {
    const { redis, keys } = this.opts;
    const ids = await redis.zrange(keys.runningCalls, '0', '-1');
    const calls = await Promise.all(ids.map((id) => this.get(id)));
    const running = calls.filter((c): c is CallRecord => c?.status === 'running');
    const holders = [...new Set(running.map((c) => c.holder))];
    const alive = await Promise.all(holders.map(async (h) => (await redis.exists(keys.lease(h))) === 1));
    const dead = new Set(holders.filter((_, i) => !alive[i]));
    // A listed id whose record is gone (expired, or lost with Redis data) is dropped from the list.
    const gone = ids.filter((_, i) => calls[i] === undefined);
    if (gone.length > 0) await redis.zrem(keys.runningCalls, ...gone);
    return running.filter((c) => dead.has(c.holder));
  }
}

const STATUSES: readonly string[] = ['running', 'completed', 'failed'] satisfies CallStatus[];
const isStatus = (value: unknown): value is CallStatus => STATUSES.includes(String(value));

function parseCall(h: Record<string, string>, questions: string[]): CallRecord | undefined {
  const { id, client, server, tool, user, holder, status, createdAt } = h;
  if (id === undefined || client === undefined || server === undefined || tool === undefined)
    return undefined;
  if (user === undefined || holder === undefined || !isStatus(status)) return undefined;
  const result = h.result === undefined ? undefined : parseObject(h.result);
  return {
    id,
    client,
    server,
    tool,
    user,
    holder,
    status,
    createdAt: Number(createdAt),
    questions,
    ...(h.team === undefined ? {} : { team: h.team }),
    ...(h.callbackUrl === undefined ? {} : { callbackUrl: h.callbackUrl }),
    ...(h.endedAt === undefined ? {} : { endedAt: Number(h.endedAt) }),
    ...(result === undefined ? {} : { result }),
    ...(h.error === undefined ? {} : { error: h.error }),
  };
}

function parseObject(json: string): Record<string, unknown> | undefined {
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : undefined;
}
