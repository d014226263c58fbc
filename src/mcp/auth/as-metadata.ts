// `auth.metadataUrl`: the authorization server's metadata (RFC 8414) at a URL the config gives, for a server
// whose protected resource metadata is missing or names the wrong authorization server. The provider hands
// it to the SDK as the discovery state, so the SDK skips finding the authorization server itself; the
// resource indicator is then the configured MCP URL unless the resource metadata names a matching one. A URL at a
// well-known path says which issuer it is for (RFC 8414 §3.1, OpenID Connect Discovery): a document naming another
// issuer is not used (RFC 8414 §3.3), as the SDK refuses one it finds itself.
import { checkResourceAllowed, type AuthorizationServerMetadata } from '@modelcontextprotocol/client';
import { SignInError } from './types.js';

const REQUIRED = ['issuer', 'authorization_endpoint', 'token_endpoint'] as const;

/** The well-known paths a metadata URL may be built with: inserted before the issuer's path, or (OIDC) after it. */
const INSERTED = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'] as const;
const APPENDED = '/.well-known/openid-configuration';

/** Fetches and checks the metadata at `url`; SignInError discovery_failed when it is not usable. */
export async function fetchAuthorizationServerMetadata(
  server: string,
  url: string,
  fetchFn: typeof fetch = fetch,
): Promise<AuthorizationServerMetadata> {
  const failed = (why: string, cause?: unknown): SignInError =>
    new SignInError('discovery_failed', server, `auth.metadataUrl of ${server} (${url}) ${why}`, {
      cause,
    });
  let body: unknown;
  try {
    const response = await fetchFn(url, { headers: { accept: 'application/json' } });
    if (!response.ok) throw failed(`answered HTTP ${response.status}`);
    body = await response.json();
  } catch (cause) {
    throw cause instanceof SignInError ? cause : failed('could not be read', cause);
  }
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const missing = REQUIRED.find((name) => typeof record[name] !== 'string');
  if (missing !== undefined) throw failed(`has no ${missing}`);
  const expected = issuerOf(url);
  if (expected !== undefined && !sameIssuer(expected, String(record.issuer)))
    throw failed(`names the issuer ${String(record.issuer)}, not ${expected}, whose metadata URL it is`);
  // The SDK reads response_types_supported; RFC 8414 requires it, some servers leave it out.
  return { response_types_supported: ['code'], ...record } as AuthorizationServerMetadata;
}

/**
 * The resource indicator (RFC 8707) when the authorization server comes from the config: the resource
 * metadata's `resource` when it matches the configured URL, that URL when there is no metadata.
 */
export function configuredResource(server: string, serverUrl: URL, named: string | undefined): URL {
  if (named === undefined) return serverUrl;
  if (!checkResourceAllowed({ requestedResource: serverUrl, configuredResource: named }))
    throw new SignInError(
      'resource_mismatch',
      server,
      `${server}'s protected resource metadata names ${named}, not ${serverUrl.href}`,
    );
  return new URL(named);
}

/** The issuer a metadata URL at a well-known path was built from; undefined for any other URL. */
function issuerOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const { origin, pathname } = new URL(url);
  const inserted = INSERTED.find((path) => pathname === path || pathname.startsWith(`${path}/`));
  if (inserted !== undefined) return `${origin}${pathname.slice(inserted.length)}`;
  if (pathname.endsWith(APPENDED)) return `${origin}${pathname.slice(0, -APPENDED.length)}`;
  return undefined;
}

/** Issuers compared as the SDK compares them: one trailing slash aside. */
const sameIssuer = (a: string, b: string): boolean => a.replace(/\/$/, '') === b.replace(/\/$/, '');
