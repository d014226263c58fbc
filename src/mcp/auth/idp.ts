// Each person's sign-in to the company IdP (`auth.idp` of enterpriseManaged servers), once for every such
// server: OpenID Connect authorization code with PKCE, scope `openid` (+ `offline_access` when the IdP offers
// it, for a refresh token), through the SDK's startAuthorization / exchangeAuthorization /
// refreshAuthorization. The `state` is the vault's (bound to the person, workspace and server, single use,
// expiring), so the bot's one callback route serves it. The IdP's tokens are sealed in the vault per person and
// workspace under `idp:<issuer>`; the ID token is what enterprise.ts exchanges for an ID-JAG. The bot reads
// only its `exp`: the IdP checks its signature when it is exchanged. A refresh is claimed (one per person at a
// time, vault.ts) and stored only over the refresh token it spent; only the IdP's refusal (invalid_grant,
// invalid_token) ends the sign-in: an outage (unreachable, 5xx) fails the call and keeps it.
import {
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  OAuthError,
  OAuthErrorCode,
  refreshAuthorization,
  startAuthorization,
  type AuthorizationServerMetadata,
  type OAuthClientInformationMixed,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { EnterpriseIdp } from './enterprise.js';
import type { SignInRecord, SignInStorage } from './sign-in-storage.js';
import type { TokenVault } from './vault.js';
import { SignInError, type Person } from './types.js';

/** An ID token this close to its `exp` is refreshed first: an exchange takes a round trip or two. 60 s. */
const EXPIRY_MARGIN_MS = 60_000;

/** A sign-in's IdP, as the config names it; `issuer` is required here (the sign-in needs its endpoints). */
export type SignInIdp = EnterpriseIdp & { issuer: string };

export interface IdpSignInDeps {
  vault: TokenVault;
  /** `${ELICIT_RELAY_PUBLIC_URL}/oauth/mcp/callback`, registered with the IdP. */
  redirectUrl: string;
  now: () => number;
  fetchFn?: typeof fetch;
}

/**
 * What a person's IdP sign-in gives: their ID token, why there is none (they sign in again), or the IdP could
 * not renew it just now (SignInError idp_unavailable: the sign-in is kept, the call is made again later).
 */
export type IdTokenState =
  { idToken: string } | { missing: 'first' | 'expired' } | { unavailable: SignInError };

export class IdpSignIn {
  private metadata: Promise<AuthorizationServerMetadata> | undefined;

  constructor(
    readonly idp: SignInIdp,
    private readonly deps: IdpSignInDeps,
  ) {}

  /** The vault's and the wakes' name of this IdP's sign-ins (never a server's: those are plain names). */
  get name(): string {
    return `idp:${this.idp.issuer}`;
  }

  /** The IdP's authorization URL for `person`, its `state` bound to them and `server` (the one they asked for). */
  async begin(server: string, person: Person): Promise<URL> {
    const metadata = await this.discover(server);
    const state = await this.deps.vault.issueState({ server, person, idp: this.idp.issuer });
    const offline = metadata.scopes_supported?.includes('offline_access') !== false;
    const { authorizationUrl, codeVerifier } = await startAuthorization(this.idp.issuer, {
      metadata,
      clientInformation: this.client(),
      redirectUrl: this.deps.redirectUrl,
      scope: offline ? 'openid offline_access' : 'openid',
      state,
    });
    await this.deps.vault.bindRequest(state, { codeVerifier, authorizationUrl: authorizationUrl.href });
    return authorizationUrl;
  }

  /** The callback: exchanges the code (PKCE verifier bound to the state) and seals the IdP's tokens. */
  async complete(server: string, person: Person, code: string, codeVerifier: string, iss?: string) {
    const metadata = await this.discover(server);
    let tokens: StoredOAuthTokens;
    try {
      tokens = await exchangeAuthorization(this.idp.issuer, {
        metadata,
        clientInformation: this.client(),
        authorizationCode: code,
        codeVerifier,
        redirectUri: this.deps.redirectUrl,
        ...(iss === undefined ? {} : { iss }),
        ...this.fetchOption(),
      });
    } catch (cause) {
      throw new SignInError('token_exchange_failed', server, `the company IdP refused the sign-in's code`, {
        cause,
      });
    }
    if (tokens.id_token === undefined)
      throw new SignInError(
        'token_exchange_failed',
        server,
        'the company IdP gave no ID token (scope openid)',
      );
    const now = this.deps.now();
    await this.deps.vault.storage(this.name, person).save({ tokens, tokensAt: now, connectedAt: now });
  }

  /** The person's ID token, refreshed when it expires within EXPIRY_MARGIN_MS; a refused refresh drops it. */
  async idToken(server: string, person: Person): Promise<IdTokenState> {
    const storage = this.deps.vault.storage(this.name, person);
    const held = this.held((await storage.load()).tokens);
    if (!('refresh' in held)) return held;
    const release = await claim(storage, server);
    if (release instanceof SignInError) return { unavailable: release };
    try {
      // Read again under the claim: another session may have refreshed while this one waited.
      const current = this.held((await storage.load()).tokens);
      return 'refresh' in current ? await this.refresh(server, storage, current.refresh) : current;
    } finally {
      await release?.();
    }
  }

  /** What the stored tokens give without the IdP, or the refresh token to renew them with. */
  private held(tokens: StoredOAuthTokens | undefined): IdTokenState | { refresh: string } {
    if (tokens?.id_token === undefined) return { missing: 'first' };
    if (expiresAt(tokens.id_token) > this.deps.now() + EXPIRY_MARGIN_MS) return { idToken: tokens.id_token };
    return tokens.refresh_token === undefined ? { missing: 'expired' } : { refresh: tokens.refresh_token };
  }

  /**
   * Renews the sign-in with `refreshToken` at the IdP. Stored only while the sign-in still holds that refresh
   * token (a disconnect meanwhile stays one); refused, the tokens are dropped only while they are still those.
   */
  private async refresh(server: string, storage: SignInStorage, refreshToken: string): Promise<IdTokenState> {
    const spent = (stored: SignInRecord | undefined): boolean =>
      stored?.tokens?.refresh_token === refreshToken;
    let fresh: StoredOAuthTokens;
    try {
      fresh = await refreshAuthorization(this.idp.issuer, {
        metadata: await this.discover(server),
        clientInformation: this.client(),
        refreshToken,
        ...this.fetchOption(),
      });
    } catch (cause) {
      if (!refusedGrant(cause)) return { unavailable: idpUnavailable(server, cause) };
      // Refused (revoked, expired session): the person signs in again.
      await storage.update((stored) => (spent(stored) ? { ...stored, tokens: undefined } : undefined));
      return { missing: 'expired' };
    }
    if (fresh.id_token === undefined) return { missing: 'expired' };
    const tokensAt = this.deps.now();
    const kept = await storage.update((stored) =>
      spent(stored) ? { ...stored, tokens: fresh, tokensAt } : undefined,
    );
    return kept ? { idToken: fresh.id_token } : { missing: 'first' };
  }

  /** When the person signed in (epoch ms), or undefined when they hold no IdP tokens. */
  async connectedAt(person: Person): Promise<number | undefined> {
    const { tokens, connectedAt, tokensAt } = await this.deps.vault.storage(this.name, person).load();
    return tokens === undefined ? undefined : (connectedAt ?? tokensAt ?? 0);
  }

  /** Deletes the person's IdP tokens (disconnect, a refused exchange); false when they had none. */
  forget(person: Person): Promise<boolean> {
    return this.deps.vault.remove(this.name, person);
  }

  private client(): OAuthClientInformationMixed {
    const { clientId, clientSecret } = this.idp;
    return clientSecret === undefined
      ? { client_id: clientId }
      : { client_id: clientId, client_secret: clientSecret };
  }

  private fetchOption(): { fetchFn?: typeof fetch } {
    return this.deps.fetchFn === undefined ? {} : { fetchFn: this.deps.fetchFn };
  }

  /** The IdP's OpenID configuration, read once (again after a failure). */
  private discover(server: string): Promise<AuthorizationServerMetadata> {
    this.metadata ??= discoverAuthorizationServerMetadata(this.idp.issuer, this.fetchOption()).then(
      (found) => {
        if (found === undefined) throw new Error(`no OpenID configuration at ${this.idp.issuer}`);
        return found;
      },
    );
    const pending = this.metadata;
    pending.catch(() => {
      if (this.metadata === pending) this.metadata = undefined;
    });
    return pending.catch((cause: unknown) => {
      throw new SignInError('discovery_failed', server, `could not read the company IdP's configuration`, {
        cause,
      });
    });
  }
}

/** The OAuth errors that end a sign-in (RFC 6749 §5.2, RFC 6750 §3.1); any other answer is passing. */
const REFUSALS: ReadonlySet<string> = new Set([OAuthErrorCode.InvalidGrant, OAuthErrorCode.InvalidToken]);

/** True when the IdP's answer (the SDK's OAuthError) refuses the grant or token, rather than failing. */
export function refusedGrant(error: unknown): boolean {
  return error instanceof OAuthError && REFUSALS.has(error.code);
}

/** The company IdP failed without refusing (unreachable, a 5xx): the call fails, the sign-in stays. */
export function idpUnavailable(server: string, cause: unknown): SignInError {
  return new SignInError(
    'idp_unavailable',
    server,
    `the company IdP could not be reached just now (your sign-in is kept): call ${server} again in a moment`,
    { cause },
  );
}

/** The ID token's `exp` in epoch ms (0 when it has none or is not a JWT: treated as expired). */
function expiresAt(idToken: string): number {
  try {
    const payload: unknown = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString());
    const exp = typeof payload === 'object' && payload !== null && 'exp' in payload ? payload.exp : undefined;
    return typeof exp === 'number' ? exp * 1000 : 0;
  } catch {
    return 0;
  }
}

/**
 * The refresh claim of the person's IdP sign-in; refresh_busy when it could not be had in time, which fails the
 * call as an IdP outage does: the sign-in is kept, the call can be made again.
 */
async function claim(
  storage: SignInStorage,
  server: string,
): Promise<(() => Promise<void>) | undefined | SignInError> {
  try {
    return await storage.claimRefresh?.();
  } catch (cause) {
    if (!(cause instanceof SignInError) || cause.code !== 'refresh_busy') throw cause;
    const why = `other calls are renewing your company sign-in just now (it is kept): call ${server} again`;
    return new SignInError('refresh_busy', server, why, { cause });
  }
}
