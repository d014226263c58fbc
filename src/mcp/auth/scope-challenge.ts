// The MCP authorization spec's scope challenge (2025-06-18 and 2025-11-25, "Scope challenge handling"): a server
// whose token lacks a scope answers `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`, and the
// client starts a new authorization for the wider scope, since a refresh cannot widen a grant (RFC 6749 §6). RFC
// 6750 §3.1 says that answer is a 403, and the SDK steps up only on a 403 (the union of the scopes asked and
// held, the refresh skipped, its retry cap). Some servers answer it with a 401, which the SDK reads as a token
// no longer good: it refreshes the same scope, sends again, gets the same 401 and fails "Server returned 401
// after re-authentication", the person never asked. Here such a 401 from the MCP endpoint is handed to the SDK
// as the 403 it means, so both get the step-up: the person is asked to connect again for the wider scope.
import { extractWWWAuthenticateParams, type FetchLike } from '@modelcontextprotocol/client';

/** `fetch` for the transport to `endpoint`: a 401 `insufficient_scope` from it comes back as a 403. */
export function scopeChallengeAsForbidden(endpoint: URL, next: FetchLike): FetchLike {
  return async (url, init) => {
    const response = await next(url, init);
    if (response.status !== 401 || new URL(url).href !== endpoint.href) return response;
    if (extractWWWAuthenticateParams(response).error !== 'insufficient_scope') return response;
    return new Response(response.body, {
      status: 403,
      statusText: 'Forbidden',
      headers: response.headers,
    });
  };
}
