// The bot's one dynamically registered client per server and authorization server, shared by every person and
// replica. Without it, two sign-ins begun at once (two Connect links, two replicas) each registered a client
// and the second overwrote the first's, so the first link's code exchange failed at the authorization server.
// The first to find no client claims the registration for REGISTRATION_CLAIM_MS and saves what the SDK
// registered, which ends the claim; the others re-read until it is there, or until the claim lapses (its holder
// died or its registration failed) and one of them takes it over. Waiting is bounded (WAIT_AT_MOST_MS). Sealed
// like every other OAuth record (sealed.ts); one no configured key opens reads as none (the vault drops it),
// so the next sign-in registers anew. So does a client whose secret expires (RFC 7591 `client_secret_expires_at`)
// before a Connect link made now could come back (STATE_TTL_SEC): its code exchange would be refused invalid_client.
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import type { RedisClient } from '../../redis/index.js';
import type { Sealer } from './sealed.js';
import { STATE_TTL_SEC } from './sign-in-states.js';
import { SignInError } from './types.js';

/** How long a claim to register lasts if its holder never saves (it died, or its registration failed), ms. */
export const REGISTRATION_CLAIM_MS = 10_000;
/** Time between re-reads while another sign-in registers, ms. */
export const REREAD_EVERY_MS = 50;
/** A sign-in gives up waiting for another's registration after this long, ms (a claim lapses long before). */
export const WAIT_AT_MOST_MS = 3 * REGISTRATION_CLAIM_MS;

/**
 * Takes the claim KEYS[1] when there is none or the one there ended (its value is its end, epoch ms, by the
 * claimer's clock; ARGV[1] is now by ours). The claim's end is in the value, not only in its PX, so the wait is
 * measured by the bot's clock (passed in, as in tests); the PX only collects a claim nobody looks at again.
 */
const CLAIM = `local held = redis.call('GET', KEYS[1])
if held and tonumber(held) > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

/**
 * Deletes KEYS[1] only while it still holds ARGV[1]: a client another sign-in saved since, or a claim another
 * took over since, stays.
 */
const DELETE_IF_UNCHANGED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** One server's registered clients, by the issuer of the authorization server they are registered at. */
export interface ClientRegistrations {
  /**
   * The client registered at `issuer`; undefined when there is none (or its secret expires within a Connect
   * link's life) and the caller is now the one to register (it then calls save, or its claim lapses after
   * REGISTRATION_CLAIM_MS). Rejects SignInError discovery_failed, naming the server, after waiting
   * WAIT_AT_MOST_MS for another's registration.
   */
  claim(issuer: string): Promise<StoredOAuthClientInformation | undefined>;
  /** The client registered at `issuer`, or undefined; never claims (a disconnect revokes with it). */
  find(issuer: string): Promise<StoredOAuthClientInformation | undefined>;
  /** Keeps the client registered at `issuer` and ends the claim. */
  save(issuer: string, client: StoredOAuthClientInformation): Promise<void>;
  /**
   * The authorization server no longer knows `clientId` (invalid_client): the next sign-in registers anew. A
   * newer client another sign-in registered since is kept.
   */
  forget(issuer: string, clientId: string): Promise<void>;
}

/** The clock and the wait between re-reads; tests pass their own so a claim's lapse needs no real waiting. */
export interface RegistrationTimers {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const REAL_TIMERS: RegistrationTimers = { now: Date.now, sleep: (ms) => sleep(ms) };

export class RedisClientRegistrations implements ClientRegistrations {
  constructor(
    private readonly redis: RedisClient,
    /** The server's key prefix; each issuer's client is one key under it. */
    private readonly keyPrefix: string,
    private readonly sealer: Sealer,
    private readonly server: string,
    /** The vault's reader: the opened value at a key, or undefined (none, or unopenable and dropped). */
    private readonly read: (key: string) => Promise<StoredOAuthClientInformation | undefined>,
    private readonly timers: RegistrationTimers = REAL_TIMERS,
  ) {}

  async claim(issuer: string): Promise<StoredOAuthClientInformation | undefined> {
    const key = this.key(issuer);
    const { now } = this.timers;
    const giveUpAt = now() + WAIT_AT_MOST_MS;
    for (;;) {
      const found = this.usable(await this.read(key));
      if (found !== undefined) return found;
      const at = now();
      const ends = String(at + REGISTRATION_CLAIM_MS);
      const claimed = await this.redis.eval(CLAIM, 1, `${key}:registering`, at, ends, REGISTRATION_CLAIM_MS);
      if (claimed === 1) return this.afterClaim(key, ends);
      if (at >= giveUpAt) break;
      await this.timers.sleep(REREAD_EVERY_MS);
    }
    throw new SignInError(
      'discovery_failed',
      this.server,
      `registering the bot at ${this.server}'s authorization server took over ${WAIT_AT_MOST_MS / 1000} s ` +
        '(another sign-in kept the registration claimed); try again',
    );
  }

  /**
   * A claim just taken: the client another sign-in saved between our read and our claim (its save ends its claim
   * only once the client is stored, so a read now sees it), with our claim given back; else undefined, ours to
   * register. Without this second read two sign-ins at once could both register (seen under load in CI).
   */
  private async afterClaim(key: string, ends: string): Promise<StoredOAuthClientInformation | undefined> {
    const found = this.usable(await this.read(key));
    if (found !== undefined) await this.redis.eval(DELETE_IF_UNCHANGED, 1, `${key}:registering`, ends);
    return found;
  }

  /**
   * `client` unless its secret expires before a link made now could be exchanged (STATE_TTL_SEC from now): a
   * registration to make again, which `save` then puts in its place. `client_secret_expires_at` is in seconds
   * since the epoch, 0 (or absent) when the secret never expires.
   */
  private usable(client: StoredOAuthClientInformation | undefined): StoredOAuthClientInformation | undefined {
    const expiresAtSec = client?.client_secret_expires_at;
    if (expiresAtSec === undefined || expiresAtSec === 0) return client;
    return expiresAtSec * 1000 > this.timers.now() + STATE_TTL_SEC * 1000 ? client : undefined;
  }

  find(issuer: string): Promise<StoredOAuthClientInformation | undefined> {
    return this.read(this.key(issuer));
  }

  async save(issuer: string, client: StoredOAuthClientInformation): Promise<void> {
    const key = this.key(issuer);
    // Two commands, not MULTI: under Redis Cluster the two keys may sit in different slots.
    await this.redis.set(key, this.sealer.seal(JSON.stringify(client), key));
    await this.redis.del(`${key}:registering`);
  }

  async forget(issuer: string, clientId: string): Promise<void> {
    const key = this.key(issuer);
    const sealed = await this.redis.get(key);
    if (sealed === null) return;
    const held = await this.read(key);
    // Compare-and-delete on the sealed value: a client saved between the two reads stays.
    if (held?.client_id === clientId) await this.redis.eval(DELETE_IF_UNCHANGED, 1, key, sealed);
  }

  private key(issuer: string): string {
    return `${this.keyPrefix}:${encodeURIComponent(issuer)}`;
  }
}
