// One person's OAuth client for one MCP server, on the SDK's OAuthClientProvider: the SDK runs discovery
// (protected resource metadata, authorization server metadata and the 2025-03-26 fallbacks), registration
// (pre-registered, client ID metadata document or dynamic), PKCE, the `resource` indicator, refresh and
// step-up; this class only keeps what it is given in a SignInStorage (each change one compare-and-set step, a
// refresh claimed and its answer stored only over the tokens it spent: grant-refresh.ts) and hands the
// authorization URL on.
import type {
  AuthorizationServerMetadata,
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { GrantDpop } from './dpop-key.js';
import { GrantRefresh, type UnsavedRefresh } from './grant-refresh.js';
import { PendingVerifiers } from './pkce-verifiers.js';
import type { ClientRegistrations } from './registrations.js';
import type { SignInRecord, SignInStorage } from './sign-in-storage.js';

export { memoryStorage, type SignInRecord, type SignInStorage } from './sign-in-storage.js';

/** One authorization request as it goes out, bound to its `state` (bindRequest). */
export interface AuthorizationRequest {
  codeVerifier: string;
  authorizationUrl: string;
  client?: StoredOAuthClientInformation;
}

export interface SignInProviderOptions {
  /** The bot's callback (`${ELICIT_RELAY_PUBLIC_URL}/oauth/mcp/callback`). */
  redirectUrl: string;
  clientName: string;
  /** `auth.scopes` of the server's config: asked when neither WWW-Authenticate nor the metadata says. */
  scopes?: string[];
  /** An HTTPS URL serving this client's metadata document, used when the server supports it (SEP-991). */
  clientMetadataUrl?: string;
  /** A pre-registered client (`auth.clientId` / `auth.clientSecret`); otherwise CIMD or registration. */
  preRegistered?: OAuthClientInformationMixed;
  /**
   * Where a registered client is shared by every person and replica (one registration per authorization
   * server); absent: each record keeps its own. A record that already has a client keeps using it.
   */
  registrations?: ClientRegistrations;
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
  storage: SignInStorage;
  /** A fresh `state` for one authorization request (bound to the person and server by the caller). */
  state?: () => Promise<string>;
  /** The person must open `url`; called by the SDK when no usable token is left. */
  onRedirect: (url: URL) => Promise<void>;
  /**
   * Keeps each authorization request (its PKCE verifier, its URL, and the shared registered client it went out
   * with, from `registrations`) with its `state`, not in the one record, where a second sign-in in flight would
   * overwrite the first's; called before the person is sent to the URL.
   */
  bindRequest?: (state: string, request: AuthorizationRequest) => Promise<void>;
  /** The callback leg: the verifier bound to the callback's `state` (else the record's is used). */
  codeVerifier?: string;
  /**
   * Set on the callback leg: the code is exchanged as the shared client the link went out with (`client`,
   * bound to its `state`), never one registered since; the callback never claims a registration.
   */
  callback?: { client?: StoredOAuthClientInformation };
  /** `auth.metadataUrl`: the authorization server from the config, not from the resource metadata. */
  authorizationServer?: ConfiguredAuthorizationServer;
  /**
   * Revokes (RFC 7009) the fresh tokens of a refresh whose answer was not saved (the grant was disconnected or
   * changed meanwhile), given with the client and authorization server the refresh used; best effort, logging
   * its own failures; not waited for. Absent: those tokens are left to expire at the authorization server.
   */
  revokeUnsaved?: (record: SignInRecord) => Promise<unknown>;
}

export interface ConfiguredAuthorizationServer {
  metadata(): Promise<AuthorizationServerMetadata>;
  /** The resource indicator for `serverUrl`, given the `resource` its metadata names (if it was found). */
  resource(serverUrl: URL, named: string | undefined): URL;
}

export class SignInProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  state?: () => Promise<string>;
  /** The issuer whose shared client this provider read (or is registering), when it uses `registrations`. */
  private sharedAt: string | undefined;
  /** The shared client this provider uses (read, registered, or the callback's link's). */
  private sharedClient: StoredOAuthClientInformation | undefined;
  private linkClientRefused = false;
  /** Verifiers saved for an authorization URL not yet handed on (with `bindRequest`). */
  private readonly verifiers = new PendingVerifiers();
  private readonly grantDpop: GrantDpop;
  private readonly refresh: GrantRefresh;

  constructor(private readonly opts: SignInProviderOptions) {
    this.clientMetadataUrl = opts.clientMetadataUrl;
    this.refresh = new GrantRefresh(opts.storage);
    this.grantDpop = new GrantDpop(
      opts.storage,
      async () => (await this.discoveryState())?.authorizationServerMetadata,
    );
    if (opts.state !== undefined) this.state = opts.state;
    const configured = opts.authorizationServer;
    if (configured !== undefined)
      this.validateResourceURL = (serverUrl, named) =>
        Promise.resolve(configured.resource(new URL(String(serverUrl)), named));
  }

  /** Set with `authorizationServer`: the SDK then takes the resource indicator from here. */
  validateResourceURL?: (serverUrl: string | URL, resource?: string) => Promise<URL | undefined>;

  get redirectUrl(): string {
    return this.opts.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const method = this.opts.tokenEndpointAuthMethod;
    return {
      client_name: this.opts.clientName,
      redirect_uris: [this.opts.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(method === undefined ? {} : { token_endpoint_auth_method: method }),
      ...(this.opts.scopes === undefined ? {} : { scope: this.opts.scopes.join(' ') }),
    };
  }

  /**
   * True on the callback leg when no client was left to exchange the code as: the authorization server refused
   * the link's (invalid_client), or the link recorded none and none is registered. The person must connect again.
   */
  get clientLost(): boolean {
    if (this.opts.callback === undefined || this.sharedAt === undefined) return false;
    return this.linkClientRefused || this.sharedClient === undefined;
  }

  async clientInformation(ctx?: { issuer: string }): Promise<StoredOAuthClientInformation | undefined> {
    const own = (await this.opts.storage.load()).client ?? this.opts.preRegistered;
    const { registrations, callback } = this.opts;
    if (own !== undefined || ctx === undefined || registrations === undefined) return own;
    this.sharedAt = ctx.issuer;
    if (callback === undefined) this.sharedClient = await registrations.claim(ctx.issuer);
    else if (this.linkClientRefused) this.sharedClient = undefined;
    // A link from before links recorded their client: the one shared now, if any (a callback never claims).
    else this.sharedClient = callback.client ?? (await registrations.find(ctx.issuer));
    return this.sharedClient;
  }

  async saveClientInformation(client: StoredOAuthClientInformation, ctx?: { issuer: string }): Promise<void> {
    const { registrations } = this.opts;
    if (registrations === undefined || ctx === undefined || ctx.issuer !== this.sharedAt)
      return this.update({ client });
    this.sharedClient = client;
    // The callback's link's client (stamped with its issuer) is not the shared one to overwrite.
    if (this.opts.callback === undefined) await registrations.save(ctx.issuer, client);
  }

  /**
   * Without `ctx`, the transport's read for a request's Authorization header; with it, the SDK's auth flow,
   * which refreshes with what it gets (so the grant's refresh is claimed first: grant-refresh.ts).
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (ctx === undefined) return (await this.opts.storage.load()).tokens;
    return this.refresh.read();
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const kept = await this.linkClientToKeep();
    const unsaved = await this.refresh.save(tokens, kept === undefined ? {} : { client: kept });
    // Not waited for: the person's call goes on (or asks them to sign in) whatever the revocation takes. The
    // hook logs its own failures; a configured metadata document unreadable now leaves the tokens to expire.
    if (unsaved !== undefined) void this.revokeUnsaved(unsaved).catch(() => undefined);
  }

  /**
   * Hands a refresh's unsaved tokens to `revokeUnsaved` with the client it refreshed as (the record's own,
   * the pre-registered or the shared one, as clientInformation found it) and its authorization server.
   */
  private async revokeUnsaved({ read, tokens }: UnsavedRefresh): Promise<void> {
    const { revokeUnsaved, preRegistered, authorizationServer } = this.opts;
    if (revokeUnsaved === undefined) return;
    const client = read.client ?? preRegistered ?? this.sharedClient;
    // The record may be gone (a disconnect): the discovery the refresh read, unless the config names it.
    const discovery = authorizationServer === undefined ? read.discovery : await this.discoveryState();
    const record: SignInRecord = {
      tokens,
      ...(client === undefined ? {} : { client }),
      ...(discovery === undefined ? {} : { discovery }),
    };
    await revokeUnsaved(record);
  }

  /**
   * On the callback leg, the link's client when it is no longer the shared one (forgotten or registered anew
   * since the link was made): the person's record keeps it, so refreshes and revocation use the client the
   * tokens were issued to.
   */
  private async linkClientToKeep(): Promise<StoredOAuthClientInformation | undefined> {
    const { registrations, callback } = this.opts;
    const used = this.sharedClient;
    if (callback === undefined || registrations === undefined || this.sharedAt === undefined)
      return undefined;
    if (used === undefined) return undefined;
    const shared = await registrations.find(this.sharedAt);
    return shared?.client_id === used.client_id ? undefined : used;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    // No refresh (none possible, or it failed): the claim goes before the person is asked, which takes minutes.
    await this.refresh.end();
    const { bindRequest } = this.opts;
    const state = url.searchParams.get('state');
    const codeVerifier = this.verifiers.take(url);
    if (bindRequest !== undefined && state !== null && codeVerifier !== undefined) {
      const client = this.sharedClient;
      const authorizationUrl = url.href;
      await bindRequest(state, {
        codeVerifier,
        authorizationUrl,
        ...(client === undefined ? {} : { client }),
      });
    }
    await this.opts.onRedirect(url);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    if (this.opts.bindRequest === undefined) return this.update({ codeVerifier });
    // Found again by the URL's code_challenge, so concurrent sign-ins of this provider keep theirs apart.
    this.verifiers.keep(codeVerifier);
    return Promise.resolve();
  }

  async codeVerifier(): Promise<string> {
    if (this.opts.codeVerifier !== undefined) return this.opts.codeVerifier;
    const { codeVerifier } = await this.opts.storage.load();
    // The SDK asks only on the callback leg, after saveCodeVerifier; a missing one is a lost sign-in.
    if (codeVerifier === undefined) throw new Error('no PKCE code verifier saved for this sign-in');
    return codeVerifier;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.update({ discovery });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const { discovery } = await this.opts.storage.load();
    const configured = this.opts.authorizationServer;
    if (configured === undefined) return discovery;
    // The config wins over what was discovered before the setting was there.
    const metadata = await configured.metadata();
    if (discovery?.authorizationServerMetadata?.issuer === metadata.issuer) return discovery;
    return { authorizationServerUrl: metadata.issuer, authorizationServerMetadata: metadata };
  }

  /** DPoP-bound tokens when the authorization server does DPoP (dpop-key.ts); undefined: Bearer tokens. */
  dpop(): Promise<DpopSession | undefined> {
    return this.grantDpop.session();
  }

  /**
   * The server said these are no good (revoked grant, unknown client): forget them. Tokens go only while they
   * are the ones whose refresh was refused: the refusal of a refresh token another replica spent a moment
   * before leaves that replica's fresh tokens, which the SDK then goes on with. A grant deleted meanwhile (a
   * disconnect) is not written back.
   */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'client') {
      const used = this.sharedClient;
      // Only the client refused: a newer one another sign-in registered since stays shared.
      if (this.sharedAt !== undefined && used !== undefined)
        await this.opts.registrations?.forget(this.sharedAt, used.client_id);
      this.sharedClient = undefined;
      this.linkClientRefused = this.opts.callback !== undefined;
    }
    await this.opts.storage.update((stored) => {
      if (stored === undefined) return undefined;
      const record = { ...stored };
      if (scope === 'all' || scope === 'client') delete record.client;
      if (scope === 'all' || (scope === 'tokens' && this.refresh.refused(record.tokens)))
        delete record.tokens;
      if (scope === 'all' || scope === 'verifier') delete record.codeVerifier;
      if (scope === 'all' || scope === 'discovery') delete record.discovery;
      return record;
    });
    // The refresh in flight ends with its tokens' fate: a refused client comes first ('client', then 'tokens'),
    // and a discovery is forgotten on a refused request, before any refresh.
    if (scope === 'all' || scope === 'tokens') await this.refresh.end();
  }

  private async update(patch: SignInRecord): Promise<void> {
    await this.opts.storage.update((stored) => ({ ...stored, ...patch }));
  }
}
