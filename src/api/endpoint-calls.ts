// Which question an ask_human call of POST /mcp waits on, kept in Redis so that a host's
// `notifications/cancelled` landing on another replica than the call's still finds it. A call is named by its
// id within the host's MCP session (src/mcp/host-calls.ts); an entry lives while its call runs. Two calls
// running under one name (hosts that send no session id share their JSON-RPC ids) make it ambiguous: a cancel
// naming it then finds neither, rather than possibly the other host's.
import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/index.js';

export interface EndpointCalls {
  /** Notes that the client's call `callId` waits on `questionId`, for at most `ttlMs` (the question's lifetime). */
  remember(client: string, callId: string, questionId: string, ttlMs: number): Promise<void>;
  /** The call ended: it no longer names `questionId`. */
  forget(client: string, callId: string, questionId: string): Promise<void>;
  /** The question the client's call `callId` waits on, if one call of that name is running. */
  questionOf(client: string, callId: string): Promise<string | undefined>;
}

/** The mark of a name two running calls share (no question id is empty). */
const AMBIGUOUS = '';

// KEYS[1] the call's entry; ARGV[1] question id, ARGV[2] ttl ms. A second call under a taken name marks it.
const REMEMBER_LUA = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
redis.call('SET', KEYS[1], '${AMBIGUOUS}', 'PX', ARGV[2])
return 0
`;

// KEYS[1] the call's entry; ARGV[1] the question id it must still name to be deleted.
const FORGET_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export class RedisEndpointCalls implements EndpointCalls {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyOf: (client: string, callId: string) => string,
  ) {}

  async remember(client: string, callId: string, questionId: string, ttlMs: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(ttlMs));
    await this.redis.eval(REMEMBER_LUA, 1, this.key(client, callId), questionId, ttl);
  }

  async forget(client: string, callId: string, questionId: string): Promise<void> {
    await this.redis.eval(FORGET_LUA, 1, this.key(client, callId), questionId);
  }

  async questionOf(client: string, callId: string): Promise<string | undefined> {
    const questionId = await this.redis.get(this.key(client, callId));
    return questionId === null || questionId === AMBIGUOUS ? undefined : questionId;
  }

  /** Ids are any string the host chose: hashed, so the key stays short and free of separators. */
  private key(client: string, callId: string): string {
    return this.keyOf(client, createHash('sha256').update(callId).digest('hex'));
  }
}
