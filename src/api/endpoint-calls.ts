// Which question an ask_human call of POST /mcp waits on, kept in Redis so that a host's
// `notifications/cancelled` landing on another replica than the call's still finds it. The host's JSON-RPC
// ids are its own (a new host session starts again at 0), so an entry lives only while its question can:
// a later call reusing the id replaces it, as the replica-local map of calls in flight does.
import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/index.js';

export interface EndpointCalls {
  /** Notes that the client's call `requestId` waits on `questionId`, for `ttlMs` (the question's lifetime). */
  remember(client: string, requestId: string, questionId: string, ttlMs: number): Promise<void>;
  /** The question the client's call `requestId` waits on, if one is remembered. */
  questionOf(client: string, requestId: string): Promise<string | undefined>;
}

export class RedisEndpointCalls implements EndpointCalls {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyOf: (client: string, requestId: string) => string,
  ) {}

  async remember(client: string, requestId: string, questionId: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.key(client, requestId), questionId, 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async questionOf(client: string, requestId: string): Promise<string | undefined> {
    return (await this.redis.get(this.key(client, requestId))) ?? undefined;
  }

  /** Ids are any string the host chose: hashed, so the key stays short and free of separators. */
  private key(client: string, requestId: string): string {
    return this.keyOf(client, createHash('sha256').update(requestId).digest('hex'));
  }
}
