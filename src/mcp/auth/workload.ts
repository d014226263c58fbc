// Workload identity federation (SEP-1933, `auth.mode: workloadIdentity`): the deployment presents a JWT its
// platform issued to it (a Kubernetes projected service account token, a cloud or CI OIDC token) as an
// RFC 7523 JWT-bearer grant, with no client secret. The token file is read again at each token request,
// since platforms rotate it (Kubernetes: about hourly). A refused grant is not retried with another grant type.
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface WorkloadIdentityOptions {
  /** The client id the authorization server knows the workload by. */
  clientId: string;
  /** The workload's current JWT (read from its file). */
  assertion: () => Promise<string>;
  scope?: string;
}

/** A non-interactive OAuthClientProvider (no redirect URL): the SDK asks prepareTokenRequest for the grant. */
export class WorkloadIdentityProvider implements OAuthClientProvider {
  private stored: StoredOAuthTokens | undefined;

  constructor(private readonly opts: WorkloadIdentityOptions) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'elicit-relay workload',
      redirect_uris: [],
      grant_types: [JWT_BEARER_GRANT],
      token_endpoint_auth_method: 'none',
      ...(this.opts.scope === undefined ? {} : { scope: this.opts.scope }),
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    return { client_id: this.opts.clientId };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error('a workload identity grant has no browser step');
  }

  saveCodeVerifier(): void {
    // No authorization code, so no PKCE verifier to keep.
  }

  codeVerifier(): string {
    throw new Error('a workload identity grant has no PKCE verifier');
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const params = new URLSearchParams({
      grant_type: JWT_BEARER_GRANT,
      assertion: await this.opts.assertion(),
    });
    const asked = scope ?? this.opts.scope;
    if (asked !== undefined) params.set('scope', asked);
    return params;
  }
}
