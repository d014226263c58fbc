// One provider's refreshes of its grant, where sessions on several replicas hold the same grant. The SDK's
// auth() reads the tokens (with the issuer as `ctx`), refreshes with their refresh token, then saves the answer
// or, refused (invalid_grant), invalidates the tokens. Two refreshes at once at an authorization server that
// rotates refresh tokens would have the second present the token the first just spent: refused, and at a
// server with reuse detection the whole grant revoked. So the read before a refresh claims the grant's refresh
// (vault.ts; one at a time) and reads again under the claim; the save ends it. And whatever the claim, the
// answer is stored only while the grant still holds the refresh token that was spent (a `/mcp disconnect`
// meanwhile stays a disconnect), and a refusal drops the tokens only while they are still the refused ones
// (another replica's fresh tokens stay, and the SDK goes on with them). An answer not stored is handed back,
// less any token the stored grant holds, for the caller to revoke: the authorization server still honours it.
import type { StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { SignInRecord, SignInStorage } from './sign-in-storage.js';

/** A refresh's answer that was not stored: the grant as the refresh read it, and the tokens no grant holds. */
export interface UnsavedRefresh {
  read: SignInRecord;
  tokens: StoredOAuthTokens;
}

export class GrantRefresh {
  /** The grant the SDK is refreshing (read under the claim), until it saved, was refused or redirected. */
  private refreshing: SignInRecord | undefined;
  private release: (() => Promise<void>) | undefined;

  constructor(private readonly storage: SignInStorage) {}

  /** The SDK's read before it refreshes: with a refresh token to spend, claims the grant's refresh first. */
  async read(): Promise<StoredOAuthTokens | undefined> {
    const { tokens } = await this.storage.load();
    if (tokens?.refresh_token === undefined) return tokens;
    if (this.storage.claimRefresh !== undefined) {
      // A claim this provider still holds (the SDK gave up a refresh without a save or a refusal it reports,
      // e.g. invalid_scope) is let go first: waiting for it would wait out its own lapse.
      await this.end();
      // No signal to give: the SDK's auth() has none for its read. The wait is bounded instead (vault.ts): a
      // claim not had in time fails the refresh with SignInError refresh_busy.
      this.release = await this.storage.claimRefresh();
    }
    // Read again under the claim: another session or replica may have refreshed while this one waited.
    const current = await this.storage.load();
    this.refreshing = current.tokens?.refresh_token === undefined ? undefined : current;
    return current.tokens;
  }

  /**
   * Saves `tokens` with `patch`: a refresh's answer only while the grant still holds the refresh token it
   * spent; outside a refresh (a sign-in's code exchange: the first tokens, or new ones over any) in any case.
   * A refresh's answer not saved is returned, less the tokens the grant now holds (revoking those would end it).
   */
  async save(tokens: StoredOAuthTokens, patch: SignInRecord = {}): Promise<UnsavedRefresh | undefined> {
    const read = this.refreshing;
    let held: StoredOAuthTokens | undefined;
    const saved = await this.storage.update((stored) => {
      held = stored?.tokens;
      if (read !== undefined && held?.refresh_token !== read.tokens?.refresh_token) return undefined;
      return { ...stored, ...patch, tokens };
    });
    // Also when the SDK only stamped the issuer on the tokens it read (tokens saved before it did): that
    // grant's next refresh then goes unclaimed, once.
    await this.end();
    if (saved || read === undefined) return undefined;
    const unheld = notHeld(tokens, held);
    return unheld === undefined ? undefined : { read, tokens: unheld };
  }

  /** Whether `stored` still holds the tokens whose refresh was just refused (else another's fresh ones). */
  refused(stored: StoredOAuthTokens | undefined): boolean {
    const spent = this.refreshing?.tokens;
    return spent !== undefined && stored?.refresh_token === spent.refresh_token;
  }

  /** The SDK is done with this refresh (saved, refused, or sending the person to sign in): the claim goes. */
  async end(): Promise<void> {
    const release = this.release;
    this.refreshing = undefined;
    this.release = undefined;
    await release?.();
  }
}

/**
 * The tokens of `answer` that `held` (the grant as stored now) does not hold: none when it holds the access
 * token; without the refresh token when it holds that (a server that does not rotate them hands the same back).
 */
function notHeld(
  answer: StoredOAuthTokens,
  held: StoredOAuthTokens | undefined,
): StoredOAuthTokens | undefined {
  if (held?.access_token === answer.access_token) return undefined;
  const { refresh_token: refresh, ...access } = answer;
  return refresh === undefined || refresh === held?.refresh_token ? access : answer;
}
