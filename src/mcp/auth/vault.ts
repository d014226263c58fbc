// The token vault in Redis: per person and server (or the deployment) one sealed SignInRecord (client
// registration, tokens, PKCE verifier, discovery state), changed in one compare-and-set step against the other
// sessions and replicas writing it (`update`), with a claim on its refresh (one refresh of a grant at a time, so
// none presents a refresh token another just spent); beside it, the grant's sealed DPoP key (created once with
// SET NX, so replicas racing to create one all sign with the first), and the `state` of each sign-in in flight,
// bound to the person, workspace and server, single use (GETDEL) and expiring after STATE_TTL_SEC; a consumed
// one remembers whether its sign-in completed. Everything secret is sealed (sealed.ts); a key names only the
// server and the Slack ids. Every replica reads the same records.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import type { RedisClient } from '../../redis/index.js';
import type { StoredDpopKey } from './dpop-key.js';
import type { SignInRecord, SignInStorage } from './provider.js';
import {
  RedisClientRegistrations,
  type ClientRegistrations,
  type RegistrationTimers,
} from './registrations.js';
import { SealError, type Sealer } from './sealed.js';
import { SignInError, type Person } from './types.js';

/** A sign-in must come back within 10 minutes. */
export const STATE_TTL_SEC = 600;
/** A consumed state is remembered this long, so that a replay is told apart from a forgery. */
const USED_TTL_SEC = 3600;

/** What issueState makes: the issue time (ms, base 36), a dot, 24 random bytes in base64url. */
const STATE_SHAPE = /^[0-9a-z]{1,12}\.[\w-]{32}$/;

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

/** How a consumed `state` was used, remembered USED_TTL_SEC: its sign-in completed, or it connected nothing. */
type StateUse = 'completed' | 'spent';
const SPENT: StateUse = 'spent';
const COMPLETED: StateUse = 'completed';

/** Told when a sealed value no configured key opens was dropped (its Redis key and why; never the value). */
export type OnUnopenable = (key: string, code: SealError['code']) => void;

/** Whose grant: a person's, or the deployment's own (client credentials). */
export type GrantOwner = Person | 'deployment';

export interface StateBinding {
  server: string;
  person: Person;
  /**
   * The PKCE verifier of the one authorization request this `state` went out with (bindVerifier): each Connect
   * link of a person has its own, so two links opened in any order both complete.
   */
  codeVerifier?: string;
  /**
   * The shared registered client the authorization request went out with (registrations.ts): the callback
   * exchanges the code as this client, even when the shared one was forgotten or registered anew meanwhile.
   */
  client?: StoredOAuthClientInformation;
  /** Set for a sign-in to the company IdP (its issuer; idp.ts), not to `server`'s own authorization server. */
  idp?: string;
}

export class TokenVault {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly sealer: Sealer,
    private readonly now: () => number = Date.now,
    private readonly onUnopenable: OnUnopenable = () => {},
  ) {}

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
  async issueState(binding: StateBinding): Promise<string> {
    const state = `${this.now().toString(36)}.${randomBytes(24).toString('base64url')}`;
    const key = this.stateKey(state);
    await this.redis.set(key, this.sealer.seal(JSON.stringify(binding), key), 'EX', STATE_TTL_SEC);
    return state;
  }

  /**
   * Binds the PKCE verifier (and the shared client, when it used one) of the authorization request sent with
   * `state` to it, keeping its expiry; a state already consumed or expired is left alone (its callback is
   * refused anyway).
   */
  async bindVerifier(
    state: string,
    codeVerifier: string,
    client?: StoredOAuthClientInformation,
  ): Promise<void> {
    const key = this.stateKey(state);
    const sealed = await this.redis.get(key);
    if (sealed === null) return;
    const bound = JSON.parse(this.sealer.open(sealed, key)) as StateBinding;
    const binding: StateBinding = { ...bound, codeVerifier, ...(client === undefined ? {} : { client }) };
    await this.redis.set(key, this.sealer.seal(JSON.stringify(binding), key), 'KEEPTTL', 'XX');
  }

  /**
   * Consumes `state` once: its binding, or SignInError state_invalid | state_expired | state_used (its sign-in
   * completed) | state_spent (it was used, but connected nothing). It counts as spent until completedState.
   */
  async consumeState(state: string): Promise<StateBinding> {
    if (!STATE_SHAPE.test(state))
      throw new SignInError('state_invalid', '', 'this sign-in link was not issued by this bot');
    const key = this.stateKey(state);
    const sealed = await this.redis.getdel(key);
    if (sealed !== null) await this.redis.set(`${key}:used`, SPENT, 'EX', USED_TTL_SEC);
    else await this.refuseUsed(`${key}:used`);
    // Also checked when the record is still there: Redis expires it by its own clock, this by the bot's.
    const age = this.now() - parseInt(state.split('.')[0] ?? '', 36);
    if (age > STATE_TTL_SEC * 1000)
      throw new SignInError('state_expired', '', 'this sign-in link expired (10 minutes)');
    if (sealed === null)
      throw new SignInError('state_invalid', '', 'this sign-in link was not issued by this bot');
    try {
      return JSON.parse(this.sealer.open(sealed, key)) as StateBinding;
    } catch (cause) {
      // Sealed with a key no longer configured (rotated away without ELICIT_RELAY_TOKEN_KEY_PREVIOUS): a link
      // this bot can no longer read is, to the person, one it did not issue; they connect again.
      if (!(cause instanceof SealError)) throw cause;
      throw new SignInError('state_invalid', '', 'this sign-in link can no longer be read', { cause });
    }
  }

  /** Records that the sign-in of a consumed `state` completed (a replay then reads state_used). */
  async completedState(state: string): Promise<void> {
    await this.redis.set(`${this.stateKey(state)}:used`, COMPLETED, 'KEEPTTL', 'XX');
  }

  /** Refuses a `state` consumed before, saying whether its sign-in completed; returns when it never was. */
  private async refuseUsed(usedKey: string): Promise<void> {
    const used = await this.redis.get(usedKey);
    if (used === null) return;
    if (used === SPENT)
      throw new SignInError('state_spent', '', 'this sign-in link was used already and can no longer be');
    // 'completed', or '1' from before the use was recorded: the sign-in most likely completed then.
    throw new SignInError('state_used', '', 'this sign-in link was already used');
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

  private stateKey(state: string): string {
    return `${this.prefix}:auth:state:${state}`;
  }
}
