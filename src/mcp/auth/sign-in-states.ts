// The `state` of each sign-in in flight, in Redis beside the vault's grants (vault.ts): bound to the person,
// workspace and server (and, once its authorization request is made, to that request's PKCE verifier, client and
// URL, which the bot's start page reads without taking it), single use (GETDEL) and expiring after
// STATE_TTL_SEC; a consumed one remembers whether its sign-in completed. Sealed like every secret (sealed.ts);
// a key names only the state. Every replica reads the same records.
import { randomBytes } from 'node:crypto';
import type { StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import type { RedisClient } from '../../redis/index.js';
import type { AuthorizationRequest } from './provider.js';
import { SealError, type Sealer } from './sealed.js';
import { SignInError, type Person } from './types.js';

/** A sign-in must come back within 10 minutes. */
export const STATE_TTL_SEC = 600;
/** A consumed state is remembered this long, so that a replay is told apart from a forgery. */
const USED_TTL_SEC = 3600;

/** What issue makes: the issue time (ms, base 36), a dot, 24 random bytes in base64url. */
const STATE_SHAPE = /^[0-9a-z]{1,12}\.[\w-]{32}$/;

/** How a consumed `state` was used, remembered USED_TTL_SEC: its sign-in completed, or it connected nothing. */
type StateUse = 'completed' | 'spent';
const SPENT: StateUse = 'spent';
const COMPLETED: StateUse = 'completed';

export interface StateBinding {
  server: string;
  person: Person;
  /**
   * The PKCE verifier of the one authorization request this `state` went out with (bindRequest): each Connect
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
  /** The authorization server's page for this request: where the bot's start page sends the browser. */
  authorizationUrl?: string;
}

export class SignInStates {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly sealer: Sealer,
    private readonly now: () => number,
  ) {}

  /** A new `state` for one authorization request, bound to the person and server. */
  async issue(binding: StateBinding): Promise<string> {
    const state = `${this.now().toString(36)}.${randomBytes(24).toString('base64url')}`;
    const key = this.keyOf(state);
    await this.redis.set(key, this.sealer.seal(JSON.stringify(binding), key), 'EX', STATE_TTL_SEC);
    return state;
  }

  /**
   * Binds the authorization request sent with `state` to it, keeping its expiry: its PKCE verifier, the URL the
   * bot's start page sends the browser to, and the shared client when it used one. A state already consumed or
   * expired is left alone (its callback is refused anyway).
   */
  async bindRequest(state: string, request: AuthorizationRequest): Promise<void> {
    const key = this.keyOf(state);
    const sealed = await this.redis.get(key);
    if (sealed === null) return;
    const bound = JSON.parse(this.sealer.open(sealed, key)) as StateBinding;
    const { codeVerifier, authorizationUrl, client } = request;
    const binding: StateBinding = {
      ...bound,
      codeVerifier,
      authorizationUrl,
      ...(client === undefined ? {} : { client }),
    };
    await this.redis.set(key, this.sealer.seal(JSON.stringify(binding), key), 'KEEPTTL', 'XX');
  }

  /**
   * The binding of a `state` not yet consumed, left in place (the start page reads whose link it is and where
   * to send the browser); refused as consume refuses.
   */
  peek(state: string): Promise<StateBinding> {
    return this.read(state, (key) => this.redis.get(key));
  }

  /**
   * Consumes `state` once: its binding, or SignInError state_invalid | state_expired | state_used (its sign-in
   * completed) | state_spent (it was used, but connected nothing). It counts as spent until completed.
   */
  consume(state: string): Promise<StateBinding> {
    return this.read(state, (key) => this.take(key));
  }

  /** Records that the sign-in of a consumed `state` completed (a replay then reads state_used). */
  async completed(state: string): Promise<void> {
    await this.redis.set(`${this.keyOf(state)}:used`, COMPLETED, 'KEEPTTL', 'XX');
  }

  /** The sealed binding at `key`, deleted in the same step; its use is remembered as spent. */
  private async take(key: string): Promise<string | null> {
    const sealed = await this.redis.getdel(key);
    if (sealed !== null) await this.redis.set(`${key}:used`, SPENT, 'EX', USED_TTL_SEC);
    return sealed;
  }

  /** A `state`'s binding, read by `fetch` (taken or only read); refused when it is unknown, used or expired. */
  private async read(state: string, fetch: (key: string) => Promise<string | null>): Promise<StateBinding> {
    if (!STATE_SHAPE.test(state))
      throw new SignInError('state_invalid', '', 'this sign-in link was not issued by this bot');
    const key = this.keyOf(state);
    const sealed = await fetch(key);
    if (sealed === null) await this.refuseUsed(`${key}:used`);
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

  /** Refuses a `state` consumed before, saying whether its sign-in completed; returns when it never was. */
  private async refuseUsed(usedKey: string): Promise<void> {
    const used = await this.redis.get(usedKey);
    if (used === null) return;
    if (used === SPENT)
      throw new SignInError('state_spent', '', 'this sign-in link was used already and can no longer be');
    // 'completed', or '1' from before the use was recorded: the sign-in most likely completed then.
    throw new SignInError('state_used', '', 'this sign-in link was already used');
  }

  private keyOf(state: string): string {
    return `${this.prefix}:auth:state:${state}`;
  }
}
