// The bot's sign-in pages, as its HTTP server mounts them when some server needs sign-in: a Connect link's start
// page, and the MCP sign-in's callback; with the app's client credentials (SLACK_CLIENT_ID / SLACK_CLIENT_SECRET,
// OAuth distribution) also Sign in with Slack's callback, and the MCP callback only for a browser that passed it.
// A bot token deployment has them only when SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are set beside it; without
// them its start page names the link's owner and nothing checks who opens it. Start-up logs which it is
// (announceIdentityCheck).
import type { RequestListener } from 'node:http';
import type { Clock } from '../clock.js';
import type { ConnectedSlack } from '../config/index.js';
import type { Logger } from '../logger.js';
import { CALLBACK_PATH, type Connections } from '../mcp/index.js';
import { BrowserBinding } from './sign-in-browser.js';
import { signInCallback, type SignInCallbackDeps } from './sign-in-callback.js';
import { SlackIdentity, type IdentityCheck } from './sign-in-identity.js';
import { signInIdentity, verifiedOnly } from './sign-in-identity-page.js';
import { IDENTITY_PATH, START_PATH } from './sign-in-links.js';
import type { OwnerLookup } from './sign-in-owner.js';
import { signInStart } from './sign-in-start.js';

export interface SignInRoutesDeps {
  connections: Pick<Connections, 'start' | 'complete'>;
  ownerOf: OwnerLookup;
  connected: SignInCallbackDeps['connected'];
  refused?: SignInCallbackDeps['refused'];
  logger: SignInCallbackDeps['logger'];
  /** Sign in with Slack before the authorization server; absent without the app's client credentials. */
  identity?: IdentityCheck;
}

/** The sign-in pages by path. */
export function signInRoutes(deps: SignInRoutesDeps): Record<string, RequestListener> {
  const { connections, ownerOf, connected, refused, logger, identity } = deps;
  const callback = signInCallback({ connections, connected, logger, ...(refused ? { refused } : {}) });
  const start = signInStart({ connections, ownerOf, logger, ...(identity ? { identity } : {}) });
  if (identity === undefined) return { [START_PATH]: start, [CALLBACK_PATH]: callback };
  const pages = { connections, identity, logger };
  return {
    [START_PATH]: start,
    [IDENTITY_PATH]: signInIdentity(pages),
    [CALLBACK_PATH]: verifiedOnly(pages, callback),
  };
}

/** The identity check of a deployment with the app's client credentials; undefined without them. */
export function identityCheckOf(
  slack: ConnectedSlack,
  fetch: typeof globalThis.fetch,
  clock: Pick<Clock, 'now'>,
  homeTeam: IdentityCheck['homeTeam'],
): IdentityCheck | undefined {
  const credentials = slack.auth === 'oauth' ? slack.oauth : slack.signInWithSlack;
  if (credentials === undefined) return undefined;
  const { clientId, clientSecret } = credentials;
  return {
    slack: new SlackIdentity({ clientId, clientSecret, apiUrl: slack.apiUrl, fetch, clock }),
    browsers: new BrowserBinding(clientSecret),
    homeTeam,
  };
}

/**
 * Start-up's one line on the identity check, for the operator (`publicUrl`: ELICIT_RELAY_PUBLIC_URL). On: the
 * redirect URL the Slack app must list (without it Slack shows its own error page to everyone who clicks Sign in
 * with Slack, and the bot hears nothing). Off: what a Connect link then checks, and how to turn the check on.
 */
export function announceIdentityCheck(
  logger: Pick<Logger, 'info'>,
  check: { on: boolean; publicUrl: string },
): void {
  const redirectUrl = `${check.publicUrl}${IDENTITY_PATH}`;
  if (check.on) {
    logger.info(
      { identityCheck: 'on', redirectUrl },
      `Sign in with Slack checks who opens each Connect link: the Slack app's Redirect URLs (OAuth & Permissions) must list ${redirectUrl}`,
    );
    return;
  }
  logger.info(
    { identityCheck: 'off', redirectUrl },
    `Sign in with Slack is off: a Connect link's page only names its owner, and anyone who opens it can connect their account for them; set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET beside SLACK_BOT_TOKEN to turn the check on, and list ${redirectUrl} in the Slack app's Redirect URLs`,
  );
}
