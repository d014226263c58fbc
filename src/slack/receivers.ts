// How Slack's requests reach Bolt. HTTP mode: our SlackEventsReceiver (events-receiver.ts: each body verified
// and parsed once), whose request listener our own server calls for POST /slack/events (so probes, OAuth pages
// and the timestamp check share one port and one server).
// Socket Mode: Bolt's SocketModeReceiver opens the WebSocket from apps.connections.open (app-level token);
// nothing listens for Slack, the probes stay on PORT. We connect and reconnect it (socket-link.ts), not the
// library: an app-level token Slack refuses at start-up stops it as a wrong setting (SLACK_APP_TOKEN,
// app-token-refusals.ts), not with Slack's stack nor by waiting for ever; one refused while the bot runs makes
// /readyz 503 until a reconnect succeeds (app-token-status.ts), and never crashes the process.
import { SocketModeReceiver, type Logger as BoltLogger, type Receiver, type webApi } from '@slack/bolt';
import type { RequestListener } from 'node:http';
import type { Clock } from '../clock.js';
import { ConfigError, type SlackConnection } from '../config/index.js';
import type { Logger } from '../logger.js';
import { AppTokenWatch, appTokenRefused } from './app-token-refusals.js';
import { AppTokenStatus, type SocketModeReadiness } from './app-token-status.js';
import { SlackEventsReceiver } from './events-receiver.js';
import { classifySlackError } from './outbox/index.js';
import { SocketModeLink } from './socket-link.js';
import { SocketOutageLog } from './socket-outage-log.js';

export interface BuiltReceiver {
  receiver: Receiver;
  /** Slack's HTTP requests (HTTP mode only). */
  events?: RequestListener;
  /** Connects the WebSocket (Socket Mode only); resolves once Slack said hello. */
  connect?: () => Promise<void>;
  disconnect?: () => Promise<void>;
  /** Socket Mode's part of /readyz (Socket Mode only). */
  socketMode?: () => SocketModeReadiness;
}

export interface ReceiverDeps {
  /** Bolt's and the Socket Mode library's logger. */
  boltLogger: BoltLogger;
  /** Our own lines (Socket Mode down, a refused app-level token, their ends). */
  logger: Logger;
  /** Times reconnects (backoff and its jitter) and how long a refusal lasted. */
  clock: Clock;
}

export function buildReceiver(
  connection: SlackConnection,
  deps: ReceiverDeps,
  clientOptions: webApi.WebClientOptions,
): BuiltReceiver {
  if (connection.mode === 'http') {
    const receiver = new SlackEventsReceiver({
      signingSecret: connection.signingSecret,
      logger: deps.boltLogger,
    });
    return { receiver, events: receiver.requestListener };
  }
  const status = new AppTokenStatus(deps);
  const outage = new SocketOutageLog(deps);
  const watch = new AppTokenWatch((code) => status.refused(code));
  const receiver = new SocketModeReceiver({
    appToken: connection.appToken,
    logger: outage.quiet(deps.boltLogger),
    autoReconnectEnabled: false,
    // apps.connections.open goes to SLACK_API_URL like every other call, once per attempt: socket-link.ts makes
    // each attempt, on the bot's clock and backoff. The library's default retried each one 100 times, 1.3×
    // further apart each time, uncapped, and slept out a 429 on timers of its own.
    installerOptions: {
      clientOptions: {
        slackApiUrl: clientOptions.slackApiUrl,
        fetch: watch.fetch,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
      },
    },
  });
  const link = new SocketModeLink(receiver.client, {
    status,
    outage,
    clock: deps.clock,
    passing,
    retryAfterMs: (error) => classifySlackError(error).retryAfterMs,
  });
  return {
    receiver,
    // A failed start leaves nothing to stop: its attempts ended before a WebSocket was made, or closed theirs.
    connect: () =>
      link.open().catch((error: unknown) => {
        throw refusedConnection(error, clientOptions.slackApiUrl);
      }),
    disconnect: () => {
      link.stop();
      return receiver.stop();
    },
    socketMode: () => status.readiness(),
  };
}

/**
 * A failure start-up tries again after: the WebSocket's own (it carries no Web API error), or a passing answer
 * from Slack (internal_error, service_unavailable…, a 5xx, a 429 after its Retry-After). A refused token, an
 * answer that is not Slack's or Slack not reached ends start-up, as the bot token's auth.test does (app.ts).
 */
function passing(error: unknown): boolean {
  const { error: code, retry } = classifySlackError(error);
  return code === 'unexpected_error' || (retry && code !== 'request_error');
}

/**
 * Why Socket Mode could not connect, as a wrong setting: a refused app-level token names SLACK_APP_TOKEN, any
 * other Web API failure SLACK_API_URL (as the bot token's check does, app.ts). Only such failures end start-up
 * (`passing`): the WebSocket's own are tried again.
 */
function refusedConnection(error: unknown, apiUrl: string | undefined): ConfigError {
  const { error: code } = classifySlackError(error);
  const refused = appTokenRefused(code, error);
  if (refused) return refused;
  const answer =
    code === 'request_error' && error instanceof Error ? error.message : `apps.connections.open: ${code}`;
  return new ConfigError(
    'SLACK_API_URL',
    `the Slack Web API at ${apiUrl ?? 'https://slack.com/api/'} could not open a Socket Mode connection (${answer})`,
    "Check that this host reaches it (network, proxy), or unset SLACK_API_URL to use Slack's own, https://slack.com/api/.",
    { cause: error },
  );
}
