// `/mcp disconnect <server>` at the authorization server: when its metadata names a revocation_endpoint
// (RFC 7009), the refresh token and then the access token are revoked with the client's own authentication
// (client_secret_basic, client_secret_post or none, as its token requests). The caller deletes the grant
// locally whatever the answer; a failure is only logged, naming the server, the endpoint and the HTTP status.
import { selectClientAuthMethod, type OAuthClientInformationMixed } from '@modelcontextprotocol/client';
import type { McpLogger } from '../types.js';
import type { SignInRecord } from './provider.js';

/** How long one revocation request may take before the disconnect goes on without it: 10 s. */
export const REVOKE_TIMEOUT_MS = 10_000;

export type RevokeOutcome = 'revoked' | 'failed' | 'unsupported';

/** Revokes the grant `record` holds at its authorization server; never throws. */
export async function revokeGrant(
  server: string,
  record: SignInRecord,
  logger?: McpLogger,
  fetchFn: typeof fetch = fetch,
): Promise<RevokeOutcome> {
  // RFC 8414 metadata names these; the SDK's type (OAuth or OpenID metadata) may not.
  const metadata: Record<string, unknown> = { ...record.discovery?.authorizationServerMetadata };
  const endpoint = metadata.revocation_endpoint;
  const { client, tokens } = record;
  if (typeof endpoint !== 'string' || client === undefined || tokens === undefined) return 'unsupported';
  const methods = [
    metadata.revocation_endpoint_auth_methods_supported,
    metadata.token_endpoint_auth_methods_supported,
  ].find((list): list is string[] => Array.isArray(list));
  const method = selectClientAuthMethod(client, methods ?? []);
  // The refresh token first: revoking it ends the grant, so a leaked access token is all that could remain.
  const asked = [
    ...(tokens.refresh_token === undefined ? [] : [[tokens.refresh_token, 'refresh_token'] as const]),
    [tokens.access_token, 'access_token'] as const,
  ];
  for (const [token, hint] of asked) {
    const status = await fetchFn(endpoint, {
      method: 'POST',
      ...revocationRequest(client, method, token, hint),
      signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
    }).then(
      (response) => response.status,
      (error: unknown) => (error instanceof Error ? error.name : 'error'),
    );
    if (status !== 200) {
      logger?.warn({ server, endpoint, hint, status }, 'revoking a grant at the authorization server failed');
      return 'failed';
    }
  }
  return 'revoked';
}

/** The body and headers of one RFC 7009 request, authenticated as the token requests are. */
function revocationRequest(
  client: OAuthClientInformationMixed,
  method: string,
  token: string,
  hint: 'refresh_token' | 'access_token',
): { headers: Headers; body: URLSearchParams } {
  const body = new URLSearchParams({ token, token_type_hint: hint });
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
  // As the SDK's own client_secret_basic (the token requests the authorization server accepted).
  if (method === 'client_secret_basic')
    headers.set('authorization', `Basic ${btoa(`${client.client_id}:${client.client_secret ?? ''}`)}`);
  else body.set('client_id', client.client_id);
  if (method === 'client_secret_post' && client.client_secret !== undefined)
    body.set('client_secret', client.client_secret);
  return { headers, body };
}
