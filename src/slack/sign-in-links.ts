// Where a Connect button leads: the bot's own start page for the link's `state` (sign-in-start.ts), never the
// authorization server's page directly. A Connect link names a `state` bound to its owner, and whoever signs in
// through it gives their account's access to that owner; so the start page first says whose link it is, and
// only a Continue there goes on to the authorization server (a link forwarded to someone else, or phished, names
// its owner before anyone signs in). With the app's client credentials the start page goes further: the person
// signs in with Slack (IDENTITY_PATH, sign-in-identity-page.ts) and only the link's owner goes on.
import { CALLBACK_PATH, SignInError } from '../mcp/index.js';

/** The start page's path, beside the callback's: the full URL is ELICIT_RELAY_PUBLIC_URL + this. */
export const START_PATH = '/oauth/mcp/start';
/** Where Sign in with Slack comes back to (manifest.yml's redirect_urls): ELICIT_RELAY_PUBLIC_URL + this. */
export const IDENTITY_PATH = '/oauth/mcp/slack-identity';

/**
 * The browser's address of the bot's sign-in pages: the authorization request's `redirect_uri`, which the bot
 * itself set to ELICIT_RELAY_PUBLIC_URL + CALLBACK_PATH (so a public URL with a path prefix keeps it).
 */
export function callbackOf(authorizationUrl: URL): URL | undefined {
  const redirect = authorizationUrl.searchParams.get('redirect_uri');
  if (redirect === null || !URL.canParse(redirect)) return undefined;
  const callback = new URL(redirect);
  return callback.pathname.endsWith(CALLBACK_PATH) ? callback : undefined;
}

/** The Connect button's link: the bot's start page for the authorization request's `state`. */
export function startUrlOf(server: string, authorizationUrl: URL): string {
  const callback = callbackOf(authorizationUrl);
  const state = authorizationUrl.searchParams.get('state');
  if (callback === undefined || state === null)
    throw new SignInError('state_invalid', server, 'the authorization page names no state or callback');
  const prefix = callback.pathname.slice(0, -CALLBACK_PATH.length);
  const start = new URL(`${prefix}${START_PATH}`, callback.origin);
  start.searchParams.set('state', state);
  return start.href;
}

/** Sign in with Slack's redirect URI beside `callback` (the bot's callback URL, callbackOf). */
export function identityUrlOf(callback: URL): string {
  const prefix = callback.pathname.slice(0, -CALLBACK_PATH.length);
  return new URL(`${prefix}${IDENTITY_PATH}`, callback.origin).href;
}
