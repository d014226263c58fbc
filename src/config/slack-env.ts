// The Slack settings from the environment, parsed into the one variant they describe: the sandbox (no
// credentials), or a connection (HTTP or Socket Mode) with its authorization (a bot token or OAuth installs).
import { ConfigError } from './error.js';
import type { OAuthConfig, SignInWithSlackConfig, SlackAuth, SlackConfig, SlackConnection } from './types.js';

type Env = Record<string, string | undefined>;

/** Installed in several workspaces (OAuth distribution), not the one of a bot token or the sandbox. */
export function servesSeveralWorkspaces(slack: SlackConfig): boolean {
  return slack.mode !== 'sandbox' && slack.auth === 'oauth';
}

/** `apiUrl` is SLACK_API_URL, already checked, ending in "/". */
export function readSlack(env: Env, apiUrl: string): SlackConfig {
  // With a bot token and no SLACK_STATE_SECRET, the client id and secret are Sign in with Slack's, not OAuth's.
  const oauth =
    env.SLACK_BOT_TOKEN && !env.SLACK_STATE_SECRET ? undefined : readOAuth(env, !!env.SLACK_BOT_TOKEN);
  const forced = env.ELICIT_RELAY_MODE || undefined;
  if (forced !== undefined && forced !== 'sandbox' && forced !== 'slack') {
    throw new ConfigError(
      'ELICIT_RELAY_MODE',
      `"${forced}" is not a mode`,
      'Use "sandbox" or "slack", or leave it unset to choose by the Slack credentials.',
    );
  }
  if (forced === 'sandbox') return { mode: 'sandbox', apiUrl };
  const auth = readAuth(env, oauth, forced === 'slack');
  if (auth === undefined) return { mode: 'sandbox', apiUrl };
  return { ...readConnection(env), ...auth, apiUrl };
}

/** The bot token or the OAuth settings; undefined when neither is set (the sandbox). */
function readAuth(env: Env, oauth: OAuthConfig | undefined, slackForced: boolean): SlackAuth | undefined {
  const botToken = env.SLACK_BOT_TOKEN || undefined;
  if (oauth) {
    if (botToken) {
      throw new ConfigError(
        'SLACK_BOT_TOKEN',
        'is set together with SLACK_CLIENT_ID',
        'Unset SLACK_BOT_TOKEN: with OAuth every workspace, the first one too, is installed at /slack/install. ' +
          BESIDE_BOT_TOKEN,
      );
    }
    return { auth: 'oauth', oauth };
  }
  if (botToken === undefined) return noCredentials(env, slackForced);
  if (!botToken.startsWith('xoxb-')) {
    throw new ConfigError(
      'SLACK_BOT_TOKEN',
      'is not a bot token',
      'Use the Bot User OAuth Token, which starts with xoxb-.',
    );
  }
  const signInWithSlack = readSignInWithSlack(env);
  return { auth: 'token', botToken, ...(signInWithSlack ? { signInWithSlack } : {}) };
}

/** SLACK_CLIENT_ID and SLACK_CLIENT_SECRET beside a bot token: both (Sign in with Slack on) or neither. */
function readSignInWithSlack(env: Env): SignInWithSlackConfig | undefined {
  const clientId = env.SLACK_CLIENT_ID || undefined;
  const clientSecret = env.SLACK_CLIENT_SECRET || undefined;
  if (clientId && clientSecret) return { clientId, clientSecret };
  if (!clientId && !clientSecret) return undefined;
  throw new ConfigError(
    clientId ? 'SLACK_CLIENT_SECRET' : 'SLACK_CLIENT_ID',
    'is not set',
    'Set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET together (Sign in with Slack at Connect links), or neither.',
  );
}

/** Neither a bot token nor OAuth: the sandbox, unless Slack was asked for or other Slack settings are set. */
function noCredentials(env: Env, slackForced: boolean): undefined {
  if (slackForced) {
    throw new ConfigError(
      'SLACK_BOT_TOKEN',
      'is not set but ELICIT_RELAY_MODE is "slack"',
      'Set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET, or unset ELICIT_RELAY_MODE to run the sandbox.',
    );
  }
  if (env.SLACK_SIGNING_SECRET || env.SLACK_APP_TOKEN) {
    throw new ConfigError('SLACK_BOT_TOKEN', 'is not set', 'Set it to the Bot User OAuth Token (xoxb-…).');
  }
  return undefined;
}

/** Socket Mode when SLACK_APP_TOKEN is set, else HTTP mode, which needs SLACK_SIGNING_SECRET. */
function readConnection(env: Env): SlackConnection {
  const appToken = env.SLACK_APP_TOKEN || undefined;
  if (appToken) {
    if (!appToken.startsWith('xapp-')) {
      throw new ConfigError(
        'SLACK_APP_TOKEN',
        'is not an app-level token',
        'Use an app-level token (xapp-…) with connections:write, or unset it for HTTP mode.',
      );
    }
    return { mode: 'socket', appToken };
  }
  const signingSecret = env.SLACK_SIGNING_SECRET || undefined;
  if (!signingSecret) {
    throw new ConfigError(
      'SLACK_SIGNING_SECRET',
      'is not set',
      'Set it to the Signing Secret from Basic Information, or set SLACK_APP_TOKEN for Socket Mode.',
    );
  }
  return { mode: 'http', signingSecret };
}

const OAUTH_KEYS = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;
/** Shortest SLACK_STATE_SECRET accepted, in characters: it signs the install flow's state. */
const MIN_STATE_SECRET = 16;

/**
 * What an operator who wants Sign in with Slack beside a bot token, but also set SLACK_STATE_SECRET, should do:
 * that secret is what makes the client id and secret an OAuth install's.
 */
const BESIDE_BOT_TOKEN =
  'For Sign in with Slack at Connect links beside SLACK_BOT_TOKEN, unset SLACK_STATE_SECRET instead.';

/** The OAuth settings, all three or none; `botToken`: SLACK_BOT_TOKEN is set too. */
function readOAuth(env: Env, botToken: boolean): OAuthConfig | undefined {
  const [clientId, clientSecret, stateSecret] = OAUTH_KEYS.map((key) => env[key] || undefined);
  if (!clientId && !clientSecret && !stateSecret) return undefined;
  const missing = OAUTH_KEYS.find((key) => !env[key]);
  if (missing || !clientId || !clientSecret || !stateSecret) {
    throw new ConfigError(
      missing ?? 'SLACK_CLIENT_ID',
      'is not set',
      `Set ${OAUTH_KEYS.join(', ')} together for multi-workspace installs, or none of them.` +
        (botToken ? ` ${BESIDE_BOT_TOKEN}` : ''),
    );
  }
  if (stateSecret.length < MIN_STATE_SECRET) {
    throw new ConfigError(
      'SLACK_STATE_SECRET',
      `is shorter than ${MIN_STATE_SECRET} characters`,
      'Use a long random string, e.g. the output of `openssl rand -hex 32`.',
    );
  }
  return { clientId, clientSecret, stateSecret };
}
