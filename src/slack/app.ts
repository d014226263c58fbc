// Builds the Bolt app on its HTTP receiver: Slack's requests at POST /slack/events, GET /healthz for probes.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from '../logger.js';
import { registerListeners, type ListenerDeps } from './listeners.js';
import type { Outbox } from '../store/index.js';
import { Locales } from './locales.js';
import { classifySlackError, slackHandler } from './outbox.js';
import { SlackSurface } from './surface.js';

export interface SlackAppOptions {
  botToken: string;
  signingSecret: string;
  /** Base URL of the Web API, ending in "/". */
  apiUrl: string;
  logger: Logger;
  /** Answers /healthz: 200 while it returns true, 503 otherwise. */
  isReady: () => boolean;
  /** Card posts and updates go through it: it owns retries, Retry-After and pacing. */
  outbox: Outbox;
}

export interface SlackApp {
  app: App;
  surface: SlackSurface;
  /** Registers the listeners; call once the relay and the tools exist. */
  listen(deps: Omit<ListenerDeps, 'surface'>): void;
  start(port: number): Promise<{ port: number }>;
  stop(): Promise<void>;
}

export function createSlackApp(options: SlackAppOptions): SlackApp {
  const app = new App({
    token: options.botToken,
    signingSecret: options.signingSecret,
    endpoints: '/slack/events',
    logger: boltLogger(options.logger),
    logLevel: LogLevel.INFO,
    // The outbox retries; the client must hand rate limits back to it instead of sleeping them out.
    clientOptions: {
      slackApiUrl: options.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: 10_000,
    },
    customRoutes: [
      {
        path: '/healthz',
        method: ['GET'],
        handler: (_req, res) => {
          const ready = options.isReady();
          res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: ready }));
        },
      },
    ],
  });
  app.error((error) => {
    options.logger.error({ err: error, code: error.code }, 'slack listener failed');
    return Promise.resolve();
  });
  const surface = new SlackSurface(app.client, new Locales(app.client), options.outbox);
  return {
    app,
    surface,
    listen: (deps) => registerListeners(app, { ...deps, surface }),
    start: async (port) => {
      await options.outbox.start(slackHandler(app.client), classifySlackError);
      const server = (await app.start({ port, host: '0.0.0.0' })) as Server;
      return { port: (server.address() as AddressInfo).port };
    },
    stop: () => app.stop().then(() => undefined),
  };
}

/** Routes Bolt's own log lines into our structured logger. */
function boltLogger(logger: Logger): BoltLogger {
  const child = logger.child({ component: 'bolt' });
  return {
    debug: (...msg: unknown[]) => child.debug(msg.map(String).join(' ')),
    info: (...msg: unknown[]) => child.info(msg.map(String).join(' ')),
    warn: (...msg: unknown[]) => child.warn(msg.map(String).join(' ')),
    error: (...msg: unknown[]) => child.error(msg.map(String).join(' ')),
    setLevel: () => undefined,
    getLevel: () => LogLevel.INFO,
    setName: () => undefined,
  };
}
