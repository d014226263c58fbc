// How Slack's requests reach Bolt. HTTP mode: our SlackEventsReceiver (events-receiver.ts: each body verified
// and parsed once), whose request listener our own server calls for POST /slack/events (so probes, OAuth pages
// and the timestamp check share one port and one server).
// Socket Mode: Bolt's SocketModeReceiver opens the WebSocket from apps.connections.open (app-level token) and
// reconnects after Slack's `disconnect` messages; nothing listens for Slack, the probes stay on PORT.
import { SocketModeReceiver, type Logger as BoltLogger, type Receiver, type webApi } from '@slack/bolt';
import type { RequestListener } from 'node:http';
import type { SlackConnection } from '../config/index.js';
import { SlackEventsReceiver } from './events-receiver.js';

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
      await receiver.start();
    },
    disconnect: () => receiver.stop(),
  };
}
