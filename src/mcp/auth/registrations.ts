// The bot's one dynamically registered client per server and authorization server, shared by every person and
// replica. Without it, two sign-ins begun at once (two Connect links, two replicas) each registered a client
// and the second overwrote the first's, so the first link's code exchange failed at the authorization server.
// The first to find no client claims the registration for REGISTRATION_CLAIM_MS (SET NX PX) and saves what
// the SDK registered, which ends the claim; the others re-read until it is there (or the claim lapses, when
// the registration failed, and one of them claims it). Sealed like every other OAuth record (sealed.ts); one no
// configured key opens reads as none (the vault drops it), so the next sign-in registers anew.
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import type { RedisClient } from '../../redis/index.js';
import type { Sealer } from './sealed.js';
import { SignInError } from './types.js';

/** How long a claim to register lasts if its holder never saves (its registration failed), ms. */
export const REGISTRATION_CLAIM_MS = 10_000;
/** Time between re-reads while another sign-in registers, ms. */
const REREAD_EVERY_MS = 50;
/** A sign-in gives up waiting for another's registration after this long, ms (a claim lapses long before). */
const WAIT_AT_MOST_MS = 3 * REGISTRATION_CLAIM_MS;

/** One server's registered clients, by the issuer of the authorization server they are registered at. */
export interface ClientRegistrations {
  /**
   * The client registered at `issuer`; undefined when there is none and the caller is now the one to register
   * (it then calls save, or its claim lapses after REGISTRATION_CLAIM_MS).
   */
  claim(issuer: string): Promise<StoredOAuthClientInformation | undefined>;
  /** The client registered at `issuer`, or undefined; never claims (a disconnect revokes with it). */
  find(issuer: string): Promise<StoredOAuthClientInformation | undefined>;
  /** Keeps the client registered at `issuer` and ends the claim. */
  save(issuer: string, client: StoredOAuthClientInformation): Promise<void>;
  /** The authorization server no longer knows the client (invalid_client): the next sign-in registers anew. */
  forget(issuer: string): Promise<void>;
}

export class RedisClientRegistrations implements ClientRegistrations {
  constructor(
    private readonly redis: RedisClient,
    /** The server's key prefix; each issuer's client is one key under it. */
    private readonly keyPrefix: string,
    private readonly sealer: Sealer,
    private readonly server: string,
    /** The vault's reader: the opened value at a key, or undefined (none, or unopenable and dropped). */
    private readonly read: (key: string) => Promise<StoredOAuthClientInformation | undefined>,
  ) {}

  async claim(issuer: string): Promise<StoredOAuthClientInformation | undefined> {
    const key = this.key(issuer);
    for (let waited = 0; waited <= WAIT_AT_MOST_MS; waited += REREAD_EVERY_MS) {
      const found = await this.read(key);
      if (found !== undefined) return found;
      const claimed = await this.redis.set(`${key}:registering`, '1', 'PX', REGISTRATION_CLAIM_MS, 'NX');
      if (claimed === 'OK') return undefined;
      await sleep(REREAD_EVERY_MS);
    }
    throw new SignInError(
      'discovery_failed',
      this.server,
      `registering the bot at ${this.server}'s authorization server took over ${WAIT_AT_MOST_MS / 1000} s`,
    );
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

  async forget(issuer: string): Promise<void> {
    await this.redis.del(this.key(issuer));
  }

  private key(issuer: string): string {
    return `${this.keyPrefix}:${encodeURIComponent(issuer)}`;
  }
}
