// How Slack's requests reach Bolt. HTTP mode: our SlackEventsReceiver (events-receiver.ts: each body verified
// and parsed once), whose request listener our own server calls for POST /slack/events (so probes, OAuth pages
// and the timestamp check share one port and one server).
// Socket Mode: Bolt's SocketModeReceiver opens the WebSocket from apps.connections.open (app-level token) and
// reconnects after Slack's `disconnect` messages; nothing listens for Slack, the probes stay on PORT. An
// app-level token Slack refuses stops start-up as a wrong setting (SLACK_APP_TOKEN), not with Slack's stack.
import { SocketModeReceiver, type Logger as BoltLogger, type Receiver, type webApi } from '@slack/bolt';
import type { RequestListener } from 'node:http';
import { ConfigError, type SlackConnection } from '../config/index.js';
import { SlackEventsReceiver } from './events-receiver.js';
import { classifySlackError } from './outbox/index.js';

export interface BuiltReceiver {
  receiver: Receiver;
  /** Slack's HTTP requests (HTTP mode only). */
  events?: RequestListener;
  /** Connects the WebSocket (Socket Mode only); resolves once Slack said hello. */
  connect?: () => Promise<void>;
  disconnect?: () => Promise<void>;
}

export function buildReceiver(
  connection: SlackConnection,
  logger: BoltLogger,
  clientOptions: webApi.WebClientOptions,
): BuiltReceiver {
  if (connection.mode === 'http') {
    const receiver = new SlackEventsReceiver({ signingSecret: connection.signingSecret, logger });
    return { receiver, events: receiver.requestListener };
  }
  const receiver = new SocketModeReceiver({
    appToken: connection.appToken,
    logger,
    // apps.connections.open goes to SLACK_API_URL like every other call; the client retries it on its own.
    installerOptions: { clientOptions: { slackApiUrl: clientOptions.slackApiUrl } },
  });
  return {
    receiver,
    connect: async () => {
      await receiver.start().catch((error: unknown) => {
        throw refusedConnection(error, clientOptions.slackApiUrl);
      });
    },
    disconnect: () => receiver.stop(),
  };
}

/**
 * Slack's answers to apps.connections.open that mean the app-level token itself is wrong (Slack's error codes,
 * from the method's documented errors: https://api.slack.com/methods/apps.connections.open). @slack/socket-mode
 * 3.x fails the start on invalid_auth, not_authed and account_inactive and asks again after the others, so
 * those reach here only once it gives up.
 */
const APP_TOKEN_REFUSALS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'not_allowed_token_type',
  'missing_scope',
]);

/**
 * Why Socket Mode could not connect, as a wrong setting: a refused app-level token names SLACK_APP_TOKEN, any
 * other Web API failure SLACK_API_URL (as the bot token's check does, app.ts); anything else (the WebSocket
 * itself) is passed on as it is.
 */
function refusedConnection(error: unknown, apiUrl: string | undefined): unknown {
  const { error: code } = classifySlackError(error);
  if (code === 'unexpected_error') return error;
  if (APP_TOKEN_REFUSALS.has(code)) {
    return new ConfigError(
      'SLACK_APP_TOKEN',
      `Slack refused it (apps.connections.open: ${code})`,
      "Generate an app-level token (xapp-…) with the connections:write scope on your app's Basic Information page, with Socket Mode turned on.",
      { cause: error },
    );
  }
  const answer =
    code === 'request_error' && error instanceof Error ? error.message : `apps.connections.open: ${code}`;
  return new ConfigError(
    'SLACK_API_URL',
    `the Slack Web API at ${apiUrl ?? 'https://slack.com/api/'} could not open a Socket Mode connection (${answer})`,
    "Check that this host reaches it (network, proxy), or unset SLACK_API_URL to use Slack's own, https://slack.com/api/.",
    { cause: error },
  );
}
