// Idempotency-Key, per client, kept 24 h in Redis with a SHA-256 of the canonical request. The first request
// reserves the key (SET NX) before it creates anything, so concurrent duplicates, on any replica, create
// exactly one resource: the others wait for the first's result and return it; another body gets 409.
// A create can take minutes (a user group's members are looked up through Slack's 429s for up to 5 min), so a
// reservation names its owner (a random token) and when that owner last renewed it: the owner renews it every
// 3 s while it creates, and only a reservation left unrenewed for 10 s (its replica died) is taken over. The
// owner's result, and its release after a failed create, are written only while the reservation is its own.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import { commandError, type RedisClient } from '../redis/index.js';
import { ApiError } from './errors.js';

/** How long a key is remembered: 24 h, in seconds. */
export const IDEMPOTENCY_TTL_SEC = 86_400;
/** How often the owner of a reservation renews it while it creates, ms. */
export const RENEW_EVERY_MS = 3_000;
/**
 * How long a reservation may go unrenewed, ms: three renewals missed means its owner's replica died while
 * creating, and the next request with the key takes it over (instead of every retry waiting for nothing until
 * the key expires 24 h later). The margin also absorbs replicas' clocks a few seconds apart.
 */
export const LAPSE_MS = 10_000;
/** First pause between looks at a reservation still in progress, ms; doubles up to 200 ms. */
const FIRST_PAUSE_MS = 10;
const MAX_PAUSE_MS = 200;

interface Stored {
  hash: string;
  /** The id of what the first request created; absent while it is being created. */
  id?: string;
  /** When the owner reserved or last renewed it, epoch ms (absent in reservations of older versions). */
  at?: number;
  /** The reserving request's random token (absent in reservations of older versions and in results). */
  owner?: string;
}

/** Replaces a reservation only if it is still the one read (KEYS[1]; ARGV: the value read, the new value). */
const TAKE_OVER_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1`;

/**
 * Writes ARGV[2] over KEYS[1] (keeping its TTL), or deletes it when ARGV[2] is '', only while it is a
 * reservation of owner ARGV[1]: 1 when written, 0 when another request took it over or a result is there.
 */
const IF_OWNER_LUA = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local ok, stored = pcall(cjson.decode, raw)
if not ok or type(stored) ~= 'table' or stored.owner ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') end
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

type IdempotencyClock = Pick<Clock, 'now' | 'schedule'>;

export class Idempotency {
  constructor(
    private readonly redis: RedisClient,
    /** The Redis key of a client's key (Keys.idempotency). */
    private readonly keyOf: (client: string, key: string) => string,
    /** `now` stamps reservations and judges their age; `schedule` times the owner's renewals. */
    private readonly clock: IdempotencyClock,
  ) {}

  /**
   * Runs `create` once per client and key: the first request's id with replay false, or (same request
   * again) that id with replay true, once the first has it: a request arriving while the first still creates
   * waits for it, however long it takes, as long as its owner keeps renewing the reservation.
   * ApiError('idempotency_conflict') when the key came with another request.
   */
  async once(
    client: string,
    key: string,
    hash: string,
    create: () => Promise<string>,
  ): Promise<{ id: string; replay: boolean }> {
    const redisKey = this.keyOf(client, createHash('sha256').update(key).digest('hex'));
    const mine = new Reservation(this.redis, redisKey, hash, this.clock);
    let pause = FIRST_PAUSE_MS;
    for (;;) {
      const reserved = await redisStep(
        this.redis.set(redisKey, mine.value(), 'EX', IDEMPOTENCY_TTL_SEC, 'NX'),
      );
      if (reserved === 'OK') return { id: await mine.create(create), replay: false };
      const raw = await redisStep(this.redis.get(redisKey));
      const stored = parse(raw);
      if (stored && stored.hash !== hash) {
        throw new ApiError('idempotency_conflict', 'This Idempotency-Key was used with another request.');
      }
      if (stored?.id !== undefined) return { id: stored.id, replay: true };
      if (raw !== null && this.lapsed(stored) && (await this.takeOver(redisKey, raw, mine.value()))) {
        return { id: await mine.create(create), replay: false };
      }
      // The first request is still creating (its owner renews the reservation), or just released it after
      // failing: look again shortly.
      await sleep(pause);
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }

  /** Whether a reservation's owner stopped renewing it (or it cannot be read as one): its replica died. */
  private lapsed(stored: Stored | undefined): boolean {
    return stored?.at === undefined || this.clock.now() - stored.at >= LAPSE_MS;
  }

  /** Makes a lapsed reservation this request's own; false when another request changed it first. */
  private async takeOver(redisKey: string, read: string, mine: string): Promise<boolean> {
    return (await redisStep(this.redis.eval(TAKE_OVER_LUA, 1, redisKey, read, mine))) === 1;
  }
}

/**
 * One request's reservation of a key: while it creates, renewed every RENEW_EVERY_MS so that other requests
 * see it alive; then its result written, or (the create failed) the key freed for a retry, each only while the
 * reservation is still this request's (a request that took it over after the renewals stalled keeps it).
 */
class Reservation {
  private readonly owner = randomBytes(12).toString('base64url');
  private cancelRenewal: () => void = () => undefined;
  private creating = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly redisKey: string,
    private readonly hash: string,
    private readonly clock: IdempotencyClock,
  ) {}

  /** The reservation as stored now: this owner, renewed at the clock's now. */
  value(): string {
    return JSON.stringify({ hash: this.hash, owner: this.owner, at: this.clock.now() } satisfies Stored);
  }

  /** Runs `create` under the reservation; its id is stored for the requests that come with the key later. */
  async create(create: () => Promise<string>): Promise<string> {
    this.creating = true;
    this.scheduleRenewal();
    let id: string;
    try {
      id = await create();
    } catch (error) {
      // Nothing was created: free the key so that a retry can (unless another request took it over).
      this.stopRenewing();
      await this.ifOwner('').catch(() => false);
      throw error;
    }
    this.stopRenewing();
    // Not written when taken over: what this request made exists all the same, and its caller gets its id.
    await this.ifOwner(JSON.stringify({ hash: this.hash, id } satisfies Stored));
    return id;
  }

  private scheduleRenewal(): void {
    this.cancelRenewal = this.clock.schedule(() => void this.renew(), RENEW_EVERY_MS);
  }

  /** Renews once, then again later unless the create ended or the reservation is no longer this owner's. */
  private async renew(): Promise<void> {
    // A renewal Redis failed is tried again at the next one: the margin is LAPSE_MS.
    const still = await this.ifOwner(this.value()).catch(() => true);
    if (still && this.creating) this.scheduleRenewal();
  }

  private stopRenewing(): void {
    this.creating = false;
    this.cancelRenewal();
  }

  /** Writes `next` (or deletes the key, for '') while the reservation is this owner's; false when it is not. */
  private async ifOwner(next: string): Promise<boolean> {
    return (await redisStep(this.redis.eval(IF_OWNER_LUA, 1, this.redisKey, this.owner, next))) === 1;
  }
}

/**
 * A command on the key, its failure as a StoreError (commandError): Redis down is 'redis_unavailable', which
 * the API answers 503 as it does the question store's. The create itself is never wrapped: its errors are its own.
 */
async function redisStep<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (err) {
    throw commandError('Idempotency-Key', err);
  }
}

/** A stored value; undefined for none, or for one no version of this code wrote. */
function parse(raw: string | null): Stored | undefined {
  if (raw === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
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
