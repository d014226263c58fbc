// SEP-2352 (authorization server migration): a server may move to another authorization server, and its
// protected resource metadata then names the new one. The SDK's auth() reuses the discovery it was given
// (OAuthClientProvider.discoveryState) without reading that metadata again, and the SDK leaves it to the
// host to say when to forget it ("on repeated 401s", its docs). Here: whenever the MCP endpoint refuses a
// token we sent (401 to a request carrying one), the provider forgets its discovery before the SDK handles
// the 401, so that sign-in reads the metadata again (a DPoP `use_dpop_nonce` challenge only asks for a nonce,
// not a new token: the SDK retries it with one); a new authorization server then gets a new client
// registration (the SDK drops a client stamped with another issuer) and the old client ID is never shown
// to it. Cost: the metadata is read again (two GETs) each time a token is refused.
import { isDpopNonceChallenge, type FetchLike, type OAuthClientProvider } from '@modelcontextprotocol/client';

/** `fetch` for the transport to `endpoint`: the same requests, with discovery forgotten on a refused token. */
export function rediscoverOnRefusedToken(
  endpoint: URL,
  provider: OAuthClientProvider,
  next: FetchLike = fetch,
): FetchLike {
  return async (url, init) => {
    const response = await next(url, init);
    const refused = response.status === 401 && !isDpopNonceChallenge(response);
    if (refused && sameUrl(url, endpoint) && carriesToken(init)) {
      await provider.invalidateCredentials?.('discovery');
    }
    return response;
  };
}

function sameUrl(url: string | URL, endpoint: URL): boolean {
  return new URL(url).href === endpoint.href;
}

/** A request that presented an access token (`Bearer`, or `DPoP` for a sender-constrained one). */
function carriesToken(init: RequestInit | undefined): boolean {
  const authorization = new Headers(init?.headers).get('authorization');
  return authorization !== null && /^(Bearer|DPoP) /i.test(authorization);
}
