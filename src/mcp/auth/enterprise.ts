// Enterprise-managed authorization (SEP-990, Cross-App Access; `auth.mode: enterpriseManaged`): no consent
// screen per server. The person's ID token from the company IdP is exchanged at the IdP's token endpoint
// (RFC 8693, requested_token_type id-jag, audience = the MCP authorization server's issuer, resource = the
// MCP server) for an ID-JAG, which the bot presents at the MCP authorization server as an RFC 7523
// JWT-bearer grant for the access token. The SDK's CrossAppAccessProvider builds both requests; this class
// keeps the access token in a SignInStorage (the vault for a person) instead of the SDK's memory, and turns a
// refused exchange into a sign-in the caller can ask for; an exchange that failed otherwise (the IdP
// unreachable, a 5xx) keeps the person's sign-in. The access token is saved as every grant write is, by
// compare-and-set on the grant as read when the exchange began: a disconnect (or a newer token) meanwhile wins.
import {
  CrossAppAccessProvider,
  discoverAndRequestJwtAuthGrant,
  parseErrorResponse,
  requestJwtAuthorizationGrant,
  UnauthorizedError,
  type CrossAppAccessContext,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { refusedGrant } from './idp.js';
import type { SignInRecord, SignInStorage } from './provider.js';

/** The company IdP as the config names it: its issuer (discovered) or its token endpoint, and the bot's client. */
export interface EnterpriseIdp {
  issuer?: string;
  tokenEndpoint?: string;
  clientId: string;
  clientSecret?: string;
}

export interface EnterpriseGrant {
  /** The client the MCP authorization server knows the bot by (`auth.clientId`). */
  clientId: string;
  clientSecret?: string;
  /**
   * The MCP authorization server's issuer the client is registered with (`auth.issuer`): the SDK then sends
   * the client's credentials and the ID-JAG to no other (SEP-2352). Absent: to the one the server names.
   */
  issuer?: string;
  scopes?: string[];
  idp: EnterpriseIdp;
  /**
   * The person's current ID token from the IdP (a fresh one when it had expired). Rejects with an
   * UnauthorizedError when the person has none: they must sign in to the IdP first.
   */
  idToken: () => Promise<string>;
  /**
   * The IdP refused the exchange (invalid_grant or invalid_token: the ID token is no longer good): the caller
   * drops it before asking again.
   */
  onExchangeRefused?: () => Promise<void>;
  /** The exchange failed otherwise (the IdP unreachable, a 5xx): the caller keeps the sign-in, fails the call. */
  onExchangeFailed?: (cause: unknown) => void;
}

/** The IdP refused to exchange the person's ID token; an UnauthorizedError, so the hub waits for a new sign-in. */
export class ExchangeRefusedError extends UnauthorizedError {
  override name = 'ExchangeRefusedError';
}

/**
 * The exchange failed without a refusal; an UnauthorizedError, so the hub asks the session's signedIn(), which
 * fails the call with what onExchangeFailed was told.
 */
export class ExchangeFailedError extends UnauthorizedError {
  override name = 'ExchangeFailedError';
}

export class EnterpriseProvider implements OAuthClientProvider {
  private readonly crossApp: CrossAppAccessProvider;
  /** The grant as read when the exchange in flight began (prepareTokenRequest), until its answer is saved. */
  private read: SignInRecord | undefined;

  constructor(
    private readonly grant: EnterpriseGrant,
    private readonly storage: SignInStorage,
  ) {
    // A client with no secret authenticates with `none` (clientInformation below leaves the secret out).
    this.crossApp = new CrossAppAccessProvider({
      clientId: grant.clientId,
      clientSecret: grant.clientSecret ?? '',
      clientName: 'elicit-relay',
      assertion: (context) => this.idJag(context),
      ...(grant.issuer === undefined ? {} : { expectedIssuer: grant.issuer }),
    });
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { scopes, clientSecret } = this.grant;
    return {
      ...this.crossApp.clientMetadata,
      ...(clientSecret === undefined ? { token_endpoint_auth_method: 'none' } : {}),
      ...(scopes === undefined ? {} : { scope: scopes.join(' ') }),
    };
  }

  clientInformation(): StoredOAuthClientInformation {
    const { clientId, clientSecret, issuer } = this.grant;
    return {
      client_id: clientId,
      ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
      ...(issuer === undefined ? {} : { issuer }),
    };
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.storage.load()).tokens;
  }

  /**
   * Saves the exchange's access token only while the grant is as the exchange read it: deleted since (a
   * disconnect), or holding another token (a newer exchange's), it is left as it is.
   */
  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const read = this.read;
    this.read = undefined;
    await this.storage.update((stored) => {
      if (stored === undefined || read === undefined) return undefined;
      return stored.tokens?.access_token === read.tokens?.access_token ? { ...stored, tokens } : undefined;
    });
  }

  redirectToAuthorization(): void {
    throw new Error('enterprise-managed authorization has no browser step at the MCP authorization server');
  }

  saveCodeVerifier(): void {
    // No authorization code at the MCP authorization server, so no PKCE verifier.
  }

  codeVerifier(): string {
    throw new Error('enterprise-managed authorization has no PKCE verifier');
  }

  /** Called by the SDK's auth() after discovery: the ID-JAG's audience. */
  saveAuthorizationServerUrl(url: string): void {
    this.crossApp.saveAuthorizationServerUrl(url);
  }

  /** Called by the SDK's auth() after discovery: the ID-JAG's resource. */
  saveResourceUrl(url: string): void {
    this.crossApp.saveResourceUrl?.(url);
  }

  /** The token was refused: it goes, unless the grant was deleted meanwhile (a disconnect is not written back). */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope !== 'all' && scope !== 'tokens') return;
    await this.storage.update((stored) => {
      if (stored === undefined) return undefined;
      const record = { ...stored };
      delete record.tokens;
      return record;
    });
  }

  /** The SDK's token request (the JWT-bearer grant): the grant is read first, for saveTokens to compare with. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    this.read = await this.readGrant();
    return this.crossApp.prepareTokenRequest(scope);
  }

  /**
   * The grant before an exchange, made (empty) when there is none, before the ID token is read: a disconnect
   * from then on deletes it, and the save finds it gone.
   */
  private async readGrant(): Promise<SignInRecord> {
    let read: SignInRecord = {};
    await this.storage.update((stored) => {
      read = stored ?? {};
      return stored === undefined ? {} : undefined;
    });
    return read;
  }

  /** The token exchange at the IdP (RFC 8693) for the MCP authorization server and resource the SDK found. */
  private async idJag(context: CrossAppAccessContext): Promise<string> {
    const { idp } = this.grant;
    const idToken = await this.grant.idToken();
    const answers = watched(context.fetchFn);
    const request = {
      audience: context.authorizationServerUrl,
      resource: context.resourceUrl,
      idToken,
      clientId: idp.clientId,
      ...(idp.clientSecret === undefined ? {} : { clientSecret: idp.clientSecret }),
      ...(context.scope === undefined ? {} : { scope: context.scope }),
      fetchFn: answers.fetchFn,
    };
    try {
      const result =
        idp.tokenEndpoint !== undefined
          ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint })
          : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer ?? '' });
      return result.jwtAuthGrant;
    } catch (cause) {
      // The SDK's message names the IdP's error code and description, never the tokens.
      const why = cause instanceof Error ? cause.message : String(cause);
      if (!(await answers.refused())) {
        this.grant.onExchangeFailed?.(cause);
        throw new ExchangeFailedError(`the company IdP could not exchange the ID token: ${why}`);
      }
      await this.grant.onExchangeRefused?.();
      throw new ExchangeRefusedError(`the company IdP refused the token exchange: ${why}`);
    }
  }
}

/**
 * `fetchFn` that keeps the last error answer, so a failed exchange is told apart by the IdP's OAuth error
 * code (the SDK's own error for it carries only text): a refusal of the ID token, or anything else.
 */
function watched(fetchFn: FetchLike): { fetchFn: FetchLike; refused(): Promise<boolean> } {
  let failed: Response | undefined;
  return {
    fetchFn: async (url, init) => {
      failed = undefined;
      const response = await fetchFn(url, init);
      if (!response.ok) failed = response.clone();
      return response;
    },
    refused: async () => failed !== undefined && refusedGrant(await parseErrorResponse(failed)),
  };
}
