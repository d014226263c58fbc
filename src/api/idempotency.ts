// Idempotency-Key, per client, kept 24 h in Redis with a SHA-256 of the canonical request. The first request
// reserves the key (SET NX) before it creates anything, so concurrent duplicates, on any replica, create
// exactly one resource: the others wait for the first's result and return it; another body gets 409.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { RedisClient } from '../redis/index.js';
import { ApiError } from './errors.js';

/** How long a key is remembered: 24 h, in seconds. */
export const IDEMPOTENCY_TTL_SEC = 86_400;
/**
 * How long a reservation may stay without a result, ms. Creating a question takes a few Redis round trips; a
 * reservation older than this is presumed dead (its replica died while creating) and the next request with the
 * key takes it over, instead of every retry getting 409 until the key expires 24 h later.
 */
export const WAIT_FOR_FIRST_MS = 10_000;
/** First pause between looks at a reservation still in progress, ms; doubles up to 200 ms. */
const FIRST_PAUSE_MS = 10;

interface Stored {
  hash: string;
  /** The id of what the first request created; absent while it is being created. */
  id?: string;
  /** When the reservation was made, epoch ms (absent in reservations written before it was recorded). */
  at?: number;
}

/** Replaces a reservation only if it is still the one read (KEYS[1]; ARGV: the value read, the new value). */
const TAKE_OVER_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1`;

/** SHA-256 of the request's JSON with keys sorted at every level, so key order does not matter. */
export function requestHash(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export class Idempotency {
  constructor(
    private readonly redis: RedisClient,
    /** The Redis key of a client's key (Keys.idempotency). */
    private readonly keyOf: (client: string, key: string) => string,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /**
   * Runs `create` once per client and key: the first request's id with replay false, or (same request
   * again) that id with replay true. ApiError('idempotency_conflict') when the key came with another request.
   */
  async once(
    client: string,
    key: string,
    hash: string,
    create: () => Promise<string>,
  ): Promise<{ id: string; replay: boolean }> {
    const redisKey = this.keyOf(client, createHash('sha256').update(key).digest('hex'));
    const started = this.clock.now();
    let pause = FIRST_PAUSE_MS;
    for (;;) {
      const reservation = JSON.stringify({ hash, at: this.clock.now() } satisfies Stored);
      const reserved = await this.redis.set(redisKey, reservation, 'EX', IDEMPOTENCY_TTL_SEC, 'NX');
      if (reserved === 'OK') return { id: await this.createReserved(redisKey, hash, create), replay: false };
      const raw = await this.redis.get(redisKey);
      const stored = parse(raw);
      if (stored && stored.hash !== hash) {
        throw new ApiError('idempotency_conflict', 'This Idempotency-Key was used with another request.');
      }
      if (stored?.id !== undefined) return { id: stored.id, replay: true };
      if (raw !== null && this.presumedDead(stored) && (await this.takeOver(redisKey, raw, hash))) {
        return { id: await this.createReserved(redisKey, hash, create), replay: false };
      }
      if (this.clock.now() - started >= WAIT_FOR_FIRST_MS) {
        throw new ApiError(
          'idempotency_conflict',
          'A request with this Idempotency-Key is still in progress.',
        );
      }
      // The first request is still creating (or its reservation was just released): look again shortly.
      await sleep(pause);
      pause = Math.min(pause * 2, 200);
    }
  }

  private presumedDead(stored: Stored | undefined): boolean {
    return stored?.at !== undefined && this.clock.now() - stored.at >= WAIT_FOR_FIRST_MS;
  }

  /** Makes a dead reservation this request's own; false when another request changed it first. */
  private async takeOver(redisKey: string, read: string, hash: string): Promise<boolean> {
    const mine = JSON.stringify({ hash, at: this.clock.now() } satisfies Stored);
    return (await this.redis.eval(TAKE_OVER_LUA, 1, redisKey, read, mine)) === 1;
  }

  private async createReserved(
    redisKey: string,
    hash: string,
    create: () => Promise<string>,
  ): Promise<string> {
    let id: string;
    try {
      id = await create();
    } catch (error) {
      // Nothing was created: free the key so that a retry can.
      await this.redis.del(redisKey).catch(() => undefined);
      throw error;
    }
    await this.redis.set(redisKey, JSON.stringify({ hash, id } satisfies Stored), 'KEEPTTL');
    return id;
  }
}

function parse(raw: string | null): Stored | undefined {
  if (raw === null) return undefined;
  const value: unknown = JSON.parse(raw);
  if (typeof value !== 'object' || value === null || !('hash' in value) || typeof value.hash !== 'string') {
    return undefined;
  }
  const at = 'at' in value && typeof value.at === 'number' ? { at: value.at } : {};
  return 'id' in value && typeof value.id === 'string'
    ? { hash: value.hash, id: value.id, ...at }
    : { hash: value.hash, ...at };
}

/** A create under an optional Idempotency-Key: what this request created, or the id of what an earlier one did. */
export type Created<T> = { created: T } | { replayOf: string };

/** Runs `create` unless the request's Idempotency-Key (if any) already did, for this client and body. */
export async function createOnce<T extends { id: string }>(
  idempotency: Idempotency,
  client: string,
  req: IncomingMessage,
  body: unknown,
  create: () => Promise<T>,
): Promise<Created<T>> {
  const key = idempotencyKey(req);
  if (key === undefined) return { created: await create() };
  let made: T | undefined;
  const { id, replay } = await idempotency.once(client, key, requestHash(body), async () => {
    made = await create();
    return made.id;
  });
  return !replay && made ? { created: made } : { replayOf: id };
}

function idempotencyKey(req: IncomingMessage): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length === 0 || key.length > 255) {
    throw new ApiError('invalid_request', 'Idempotency-Key: must be 1 to 255 characters');
  }
  return key;
}
