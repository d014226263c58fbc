// How the hub's sessions sign in: each session of a server with `auth` gets an OAuthClientProvider for its
// person (or, for a deployment grant, the deployment's). When the SDK finds no usable token it sends the
// person to the authorization URL and the request fails with UnauthorizedError; the hub then waits for
// signedIn() and opens again (or sends the call again), at most MAX_SIGN_INS times.
import { auth, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import type { Origin } from '../../relay/types.js';
import { SignInError } from './types.js';

/**
 * Sign-ins one connect waits for before it fails: a first sign-in, then one more when the server still
 * refuses (401 again, or 403 insufficient_scope). Each refusal starts one authorization in the SDK, so a
 * connect makes at most 3 authorization requests (the limit of the conformance suite's auth/scope-retry-limit).
 */
export const MAX_SIGN_INS = 2;
/**
 * Step-up sign-ins one call waits for before it fails. On each 403 insufficient_scope the SDK starts an
 * authorization (the person is asked) before the hub sees the error, so one call makes at most
 * 1 + MAX_STEP_UPS + 1 authorization requests with its connect's: 3, the limit the conformance suite's
 * auth/scope-retry-limit holds clients to. (The last one is not waited for; the person may still finish it.)
 */
export const MAX_STEP_UPS = 1;

export interface SessionAuth {
  provider: OAuthClientProvider;
  /**
   * After an UnauthorizedError: resolves once the person completed the sign-in the provider started (on
   * any replica); rejects (SignInError) when they did not in time, or none can be asked for (a deployment grant).
   */
  signedIn(signal?: AbortSignal): Promise<void>;
}

/** Given to the hub: the sign-in of each session, or undefined for a server that needs none. */
export interface McpAuth {
  forSession(server: string, person: Origin | undefined): Promise<SessionAuth | undefined>;
  /**
   * True for a server each person signs in to: a session without a person (the control link) cannot reach
   * it, so the hub opens none and lists its tools in the asking person's own session.
   */
  personal?(server: string): boolean;
}

/** True when `error` (or a cause of it) says the server wants a sign-in first. */
export function needsSignIn(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof UnauthorizedError) return true;
    current = current.cause;
  }
  return false;
}

/**
 * A call the server refused again after its person signed in MAX_STEP_UPS times for it: the grant still lacks
 * what the server asks (the person granted less at the consent page, or the server wants a scope the authorization
 * server will not give). The SDK has sent the person one more Connect message, which nobody waits for.
 */
export function stillRefused(server: string, cause: unknown): SignInError {
  return new SignInError(
    'step_up_limit',
    server,
    `${server} still refuses this call after a new sign-in: it needs access that was not granted. Approve ` +
      `everything its latest Connect message asks for, then call again`,
    { cause },
  );
}

/**
 * The callback leg: exchanges the authorization `code` for tokens (PKCE verifier, discovery state and
 * client from the provider's storage), which the provider saves. Throws the SDK's OAuthError when refused.
 */
export async function exchangeCode(
  provider: OAuthClientProvider,
  serverUrl: string,
  code: string,
  /** The callback's `iss` (RFC 9207); the SDK refuses a missing one when the server says it sends it. */
  iss?: string,
): Promise<void> {
  const result = await auth(provider, {
    serverUrl,
    authorizationCode: code,
    ...(iss === undefined ? {} : { iss }),
  });
  if (result !== 'AUTHORIZED') throw new UnauthorizedError(`token exchange ended in ${result}`);
}

/**
 * `work` on `session`, and once more when the server refused it for want of a sign-in that the session's
 * person (or deployment) then completed: a revoked grant, or (SEP-2352) a server that moved to another
 * authorization server, which refuses the old one's token after the session opened. A tool call retries in
 * ServerLink.callTool's own loop (on a new session when the old one expired).
 */
export async function withSignIn<T>(
  session: { readonly auth: SessionAuth | undefined },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (session.auth === undefined || !needsSignIn(error)) throw error;
    await session.auth.signedIn();
    return work();
  }
}
