// The token vault in Redis: per person and server (or the deployment) one sealed SignInRecord (client
// registration, tokens, PKCE verifier, discovery state), changed in one compare-and-set step against the other
// sessions and replicas writing it (`update`), with a claim on its refresh (one refresh of a grant at a time, so
// none presents a refresh token another just spent); beside it, the grant's sealed DPoP key (created once with
// SET NX, so replicas racing to create one all sign with the first), and the `state` of each sign-in in flight
// (sign-in-states.ts). Everything secret is sealed (sealed.ts); a key names only the server and the Slack ids.
// Every replica reads the same records.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import type { RedisClient } from '../../redis/index.js';
import type { StoredDpopKey } from './dpop-key.js';
import type { AuthorizationRequest, SignInRecord, SignInStorage } from './provider.js';
import {
  RedisClientRegistrations,
  type ClientRegistrations,
  type RegistrationTimers,
} from './registrations.js';
import { SealError, type Sealer } from './sealed.js';
import { SignInStates, type StateBinding } from './sign-in-states.js';
import { SignInError, type Person } from './types.js';

export { STATE_TTL_SEC, type StateBinding } from './sign-in-states.js';

/** Deletes KEYS[1] only while it still holds ARGV[1] (another replica may have written a fresh value since). */
const DELETE_IF_UNCHANGED = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Sets KEYS[1] to ARGV[2] only while it still holds ARGV[1] ('': while there is none). */
const SET_IF_UNCHANGED = `if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`;

/**
 * How long one refresh holds its grant's claim if it never lets go (its replica died, or the SDK's flow ended
 * without a save), ms: a refresh request and a save take far less.
 */
export const REFRESH_CLAIM_MS = 10_000;
/**
 * How long a refresh waits for its grant's claim before it gives up, ms: a claim left to lapse (REFRESH_CLAIM_MS,
 * its holder died) plus 5 s for the refresh that takes it next. Longer means more refreshes of one grant queue
 * than go one at a time (or Redis fails the claim): the call fails (SignInError refresh_busy) instead of hanging.
 */
export const REFRESH_CLAIM_WAIT_MS = REFRESH_CLAIM_MS + 5_000;
/** Time between tries while another session or replica refreshes the grant, ms. */
const RECLAIM_EVERY_MS = 50;

/** Told when a sealed value no configured key opens was dropped (its Redis key and why; never the value). */
export type OnUnopenable = (key: string, code: SealError['code']) => void;

/** Whose grant: a person's, or the deployment's own (client credentials). */
export type GrantOwner = Person | 'deployment';

export class TokenVault {
  private readonly states: SignInStates;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly sealer: Sealer,
    private readonly now: () => number = Date.now,
    private readonly onUnopenable: OnUnopenable = () => {},
  ) {
    this.states = new SignInStates(redis, prefix, sealer, now);
  }

  /** The SignInStorage of one grant, for SignInProvider. */
  storage(server: string, owner: GrantOwner): SignInStorage {
    const key = this.grantKey(server, owner);
    const dpopKey = `${key}:dpop`;
    return {
      load: async () => (await this.opened<SignInRecord>(key)) ?? {},
      save: async (record) => {
        await this.redis.set(key, this.sealer.seal(JSON.stringify(record), key));
      },
      update: (change) => this.update(key, change),
      claimRefresh: (signal) => this.claimRefresh(`${key}:refreshing`, server, signal),
      loadDpopKey: () => this.opened<StoredDpopKey>(dpopKey),
      claimDpopKey: async (fresh) => {
        await this.redis.set(dpopKey, this.sealer.seal(JSON.stringify(fresh), dpopKey), 'NX');
        // Another replica may have claimed first: the key kept is the one every proof is signed with.
        return (await this.opened<StoredDpopKey>(dpopKey)) ?? fresh;
      },
    };
  }

  /**
   * The bot's registered clients for `server`, shared by every person (registrations.ts); `timers` default to
   * the vault's clock and real waits.
   */
  registrations(server: string, timers?: RegistrationTimers): ClientRegistrations {
    const keyPrefix = `${this.prefix}:auth:client:${encodeURIComponent(server)}`;
    return new RedisClientRegistrations(
      this.redis,
      keyPrefix,
      this.sealer,
      server,
      (key) => this.opened<StoredOAuthClientInformation>(key),
      timers ?? { now: this.now, sleep: (ms) => sleep(ms) },
    );
  }

  /**
   * Compare-and-set on the sealed value: `change` sees the record as read and answers the next one (or
   * undefined: left as it is); when another write landed between the read and the set, it is asked again on
   * that one. Each retry means another write succeeded, and a grant has few writers, so this ends.
   */
  private async update(
    key: string,
    change: (stored: SignInRecord | undefined) => SignInRecord | undefined,
  ): Promise<boolean> {
    for (;;) {
      const { sealed, value } = await this.read<SignInRecord>(key);
      const next = change(value);
      if (next === undefined) return false;
      const fresh = this.sealer.seal(JSON.stringify(next), key);
      if ((await this.redis.eval(SET_IF_UNCHANGED, 1, key, sealed ?? '', fresh)) === 1) return true;
    }
  }

  /**
   * Waits until the grant's refresh is this caller's (the holder saved, gave up, or its claim lapsed after
   * REFRESH_CLAIM_MS); resolves with the claim's release, which leaves a claim taken over since alone. Rejects
   * SignInError refresh_busy after REFRESH_CLAIM_WAIT_MS (the vault's clock), or with `signal`'s reason.
   */
  private async claimRefresh(
    key: string,
    server: string,
    signal?: AbortSignal,
  ): Promise<() => Promise<void>> {
    const mine = randomBytes(12).toString('base64url');
    const giveUpAt = this.now() + REFRESH_CLAIM_WAIT_MS;
    while ((await this.redis.set(key, mine, 'PX', REFRESH_CLAIM_MS, 'NX')) === null) {
      signal?.throwIfAborted();
      if (this.now() >= giveUpAt)
        throw new SignInError(
          'refresh_busy',
          server,
          `another refresh of this sign-in to ${server} held it over ${REFRESH_CLAIM_WAIT_MS / 1000} s; call again`,
        );
      // Aborted meanwhile, the sleep rejects with its own AbortError: the signal's reason is thrown instead.
      await sleep(RECLAIM_EVERY_MS, undefined, { signal }).catch(() => signal?.throwIfAborted());
    }
    return async () => {
      await this.redis.eval(DELETE_IF_UNCHANGED, 1, key, mine);
    };
  }

  /** Deletes a grant and its DPoP key (disconnect, or a refresh refused as revoked); false when there was none. */
  async remove(server: string, owner: GrantOwner): Promise<boolean> {
    const key = this.grantKey(server, owner);
    const [removed] = await Promise.all([this.redis.del(key), this.redis.del(`${key}:dpop`)]);
    return removed > 0;
  }

  /** A new `state` for one authorization request, bound to the person and server. */
  issueState(binding: StateBinding): Promise<string> {
    return this.states.issue(binding);
  }

  /** Binds the authorization request sent with `state` to it (sign-in-states.ts). */
  bindRequest(state: string, request: AuthorizationRequest): Promise<void> {
    return this.states.bindRequest(state, request);
  }

  /** The binding of a `state` not yet consumed, left in place (the Connect link's start page reads it). */
  peekState(state: string): Promise<StateBinding> {
    return this.states.peek(state);
  }

  /** Consumes `state` once: its binding, or the SignInError saying why not (sign-in-states.ts). */
  consumeState(state: string): Promise<StateBinding> {
    return this.states.consume(state);
  }

  /** Records that the sign-in of a consumed `state` completed (a replay then reads state_used). */
  completedState(state: string): Promise<void> {
    return this.states.completed(state);
  }

  /**
   * A grant, DPoP key or registered client that no configured key opens (sealed with a key rotated away without
   * ELICIT_RELAY_TOKEN_KEY_PREVIOUS, or altered in Redis) is no grant: it is deleted, so the person is asked to
   * connect again (and a DPoP key is made anew) instead of every call to the server failing on it.
   */
  private async opened<T>(key: string): Promise<T | undefined> {
    return (await this.read<T>(key)).value;
  }

  /** The sealed value at `key` and what it opens to; an unopenable one is dropped and reads as none. */
  private async read<T>(key: string): Promise<{ sealed: string | null; value: T | undefined }> {
    const sealed = await this.redis.get(key);
    if (sealed === null) return { sealed, value: undefined };
    try {
      return { sealed, value: JSON.parse(this.sealer.open(sealed, key)) as T };
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      await this.redis.eval(DELETE_IF_UNCHANGED, 1, key, sealed);
      this.onUnopenable(key, error.code);
      return { sealed: null, value: undefined };
    }
  }

  private grantKey(server: string, owner: GrantOwner): string {
    const who = owner === 'deployment' ? 'deployment' : `${owner.teamId}:${owner.userId}`;
    return `${this.prefix}:auth:grant:${encodeURIComponent(server)}:${who}`;
  }
}
