// Builds the Bolt app: its receiver by mode (HTTP or Socket Mode), its tokens (one workspace's bot token, or
// each workspace's from its OAuth install), our HTTP server for probes, the install pages and (HTTP mode)
// Slack's requests, the global middleware that processes each Events API event once, and the surface.
import type { RequestListener } from 'node:http';
import { LogLevel, type App, type AppOptions, type Logger as BoltLogger, type webApi } from '@slack/bolt';
import { systemClock, type Clock } from '../clock.js';
import { ConfigError, type ConnectedSlack, type SlackPolicy } from '../config/index.js';
import { httpFetch } from '../http/index.js';
import type { Logger } from '../logger.js';
import type { Outbox } from './outbox/index.js';
import type { SlackStatePorts } from './state/index.js';
import { AckGate, type PostAckWork } from './ack-gate.js';
import { AckTimingApp } from './ack-timing.js';
import { Audience } from './audience.js';
import { countedFetch, type SlackCallObserver } from './counted-fetch.js';
import { processEventsOnce } from './event-dedupe.js';
import { startHttpServer, type Mount, type Readiness, type RunningHttpServer } from './http-server.js';
import { registerListeners, type ListenerDeps } from './listeners/index.js';
import { Locales } from './locales.js';
import { classifySlackError, slackErrorCode, slackHandler } from './outbox/index.js';
import { distributedApp, type DistributedApp } from './oauth.js';
import { buildReceiver, type BuiltReceiver } from './receivers.js';
import type { SocketModeReadiness } from './app-token-status.js';
import { SlackSurface } from './surface.js';
import { tokenless } from './workspace-client.js';
import { singleWorkspace, type SlackClients } from './workspaces.js';

export interface SlackAppOptions {
  /** How Slack reaches the bot, whose tokens it uses (OAuth: installations in `state.installations`), the API URL. */
  slack: ConnectedSlack;
  logger: Logger;
  /** Answers /healthz (liveness): 200 while it returns true, 503 otherwise. */
  isLive: () => boolean;
  /** Answers /readyz: the bot serves (started, not draining) and what else readiness reports. */
  readiness: () => Promise<Readiness>;
  /** Card posts and updates go through it: it owns retries, Retry-After and pacing. */
  outbox: Outbox;
  /** Redis state of the Slack side (event deliveries seen, installations). */
  state: SlackStatePorts;
  /** Each server's `slack` policy (routing, answerers, review, reminders); the defaults when absent. */
  policyOf?: (server: string) => SlackPolicy;
  /** More GET routes of our HTTP server by exact path (e.g. /metrics). */
  routes?: Record<string, RequestListener>;
  /** Hears every Web API call (method, error) and every answered Slack request (ms, status), for metrics. */
  observe?: SlackObserver;
  /**
   * Times post-ack work's bounded wait for Slack's requests to be acked (ack-gate.ts) and Socket Mode's
   * reconnects (socket-link.ts); default the system clock.
   */
  clock?: Clock;
  /** Whether a question is still pending: the outbox skips a reminder whose question ended while it waited. */
  isPending?: (questionId: string) => Promise<boolean>;
}

/** The Slack side's metrics hooks. */
export interface SlackObserver {
  slackCall: SlackCallObserver;
  slackAck: (ms: number, status: number) => void;
  /** Socket Mode: milliseconds from an envelope's receipt to its ack. */
  socketAck: (ms: number) => void;
}

export interface SlackApp {
  app: App;
  surface: SlackSurface;
  /** The Web API client of each workspace, for calls made outside a Bolt listener. */
  clients: SlackClients;
  /** Each workspace's org (org-wide installs); absent with one bot token. */
  orgs?: DistributedApp['orgs'];
  /** Where work that follows an ack waits while Slack's requests still wait for theirs (ack-gate.ts). */
  postAck: PostAckWork;
  /** Socket Mode's part of /readyz (Socket Mode only): a refused app-level token makes the bot unready. */
  socketMode?: () => SocketModeReadiness;
  /** Registers the listeners; call once the relay and the tools exist. */
  listen(deps: Omit<ListenerDeps, 'surface' | 'locales' | 'postAck'>): void;
  /** `mounts`: more handlers on the same HTTP server (the Automations API); `host`: HttpServerOptions.host. */
  start(port: number, mounts?: readonly Mount[], host?: string): Promise<{ port: number }>;
  stop(): Promise<void>;
}

export function createSlackApp(options: SlackAppOptions): SlackApp {
  const { app, built, distributed } = boltApp(options);
  const clients = distributed?.clients ?? singleWorkspace(app.client);
  const audience = new Audience(clients, options.policyOf);
  const locales = new Locales(clients, systemClock, options.logger);
  const surface = new SlackSurface(clients, locales, options.outbox, audience, systemClock, options.logger);
  // HTTP mode counts Slack's requests in flight; in Socket Mode nothing does, so post-ack work never waits.
  const gate = new AckGate(options.clock ?? systemClock);
  let server: RunningHttpServer | undefined;
  return {
    app,
    surface,
    clients,
    ...(distributed ? { orgs: distributed.orgs } : {}),
    postAck: gate,
    ...(built.socketMode ? { socketMode: built.socketMode } : {}),
    listen: (deps) => registerListeners(app, { ...deps, surface, locales: surface.locales, postAck: gate }),
    start: async (port, mounts = [], host) => {
      await initialize(app, options.slack);
      await options.outbox.start(slackHandler(clients, options.isPending), classifySlackError);
      await built.connect?.();
      server = await startHttpServer({
        port,
        ...(host === undefined ? {} : { host }),
        live: options.isLive,
        ready: options.readiness,
        logger: options.logger,
        ...(built.events ? { events: built.events } : {}),
        routes: { ...options.routes, ...distributed?.routes },
        mounts,
        ...(options.observe ? { onSlackResponse: options.observe.slackAck } : {}),
        inFlight: gate,
      });
      return { port: server.port };
    },
    stop: async () => {
      await server?.close();
      await built.disconnect?.();
    },
  };
}

/**
 * The Bolt app on its receiver (HTTP or Socket Mode) with its tokens, each Events API event processed once,
 * and listener failures logged; `distributed` when tokens come from OAuth installs.
 */
function boltApp(options: SlackAppOptions): {
  app: App;
  built: BuiltReceiver;
  distributed: DistributedApp | undefined;
} {
  const logger = boltLogger(options.logger);
  const clientOptions = webClientOptions(options);
  const built = buildReceiver(
    options.slack,
    { boltLogger: logger, logger: options.logger, clock: options.clock ?? systemClock },
    clientOptions,
  );
  const { bolt, distributed } = authorization(options.slack, {
    installations: options.state.installations,
    clientOptions,
    logger,
    now: () => (options.clock ?? systemClock).now(),
  });
  const app = ackTimedApp(
    { ...bolt, receiver: built.receiver, logger, logLevel: LogLevel.INFO, clientOptions, ...DEFERRED },
    options,
  );
  app.use(processEventsOnce(options.state.deliveries, options.logger));
  app.error((error) => {
    options.logger.error(
      { err: error, code: error.code, slackError: slackErrorCode(error) },
      'slack listener failed',
    );
    return Promise.resolve();
  });
  return { app, built, distributed };
}

/** Bolt's options that hold off work it would otherwise do unasked. */
const DEFERRED = {
  // Bolt's auth.test of a bot token runs in init(), awaited by start(): run from the constructor, as Bolt
  // does by default, a wrong token or an unreachable Slack rejected with no one to catch it.
  deferInitialization: true,
  // No listener keeps conversation state (context.conversation); Bolt's default store would look each
  // request's conversation up, and reject with a new Error (a stack trace) for every one it never saw.
  convoStore: false,
} as const satisfies AppOptions;

/** The app timing its acks: HTTP acks are timed by our HTTP server (onSlackResponse), Socket Mode's here. */
function ackTimedApp(appOptions: AppOptions, options: SlackAppOptions): App {
  return new AckTimingApp(appOptions, {
    ...(options.observe && options.slack.mode === 'socket' ? { onAck: options.observe.socketAck } : {}),
    onLateAck: ({ ms, type }) =>
      options.logger.warn(
        { payloadType: type, ms: Math.round(ms) },
        "ack came after Slack's 3 s: Slack was already answered without it (the person saw Slack's error)",
      ),
  });
}

/** Slack's answers to auth.test that mean the bot token itself is wrong (Slack's error codes, not messages). */
const TOKEN_REFUSALS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'not_allowed_token_type',
]);

/**
 * Bolt's initialisation: with a bot token, auth.test. A refusal of the token is a ConfigError naming
 * SLACK_BOT_TOKEN, and any other Web API failure one naming SLACK_API_URL (nothing answered there, or not as
 * Slack does), so start-up stops with the setting and the fix instead of a stack.
 */
async function initialize(app: App, slack: ConnectedSlack): Promise<void> {
  try {
    await app.init();
  } catch (error) {
    const { error: code } = classifySlackError(error);
    if (code === 'unexpected_error' || slack.auth !== 'token') throw error;
    if (TOKEN_REFUSALS.has(code)) {
      throw new ConfigError(
        'SLACK_BOT_TOKEN',
        `Slack refused it (auth.test: ${code})`,
        "Copy the Bot User OAuth Token (xoxb-…) from your app's OAuth & Permissions page, reinstalling the app if it was revoked.",
        { cause: error },
      );
    }
    const answer = code === 'request_error' && error instanceof Error ? error.message : `auth.test: ${code}`;
    throw new ConfigError(
      'SLACK_API_URL',
      `the Slack Web API at ${slack.apiUrl} could not check the bot token (${answer})`,
      "Check that this host reaches it (network, proxy), or unset SLACK_API_URL to use Slack's own, https://slack.com/api/.",
      { cause: error },
    );
  }
}

/** The Web API client's options: Slack's URL, a 10 s timeout, the process's fetch (counting calls for metrics). */
function webClientOptions(options: SlackAppOptions): webApi.WebClientOptions & { slackApiUrl: string } {
  // The outbox retries; the client must hand rate limits back to it instead of sleeping them out.
  return {
    slackApiUrl: options.slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 10_000,
    fetch: options.observe ? countedFetch(options.observe.slackCall, httpFetch) : httpFetch,
  };
}

/**
 * Bolt's authorization: the one workspace's bot token, or each workspace's from its OAuth install, answered to
 * Bolt without its tokens: listeners get the workspace's client instead (workspace-client.ts), and Bolt keeps no
 * client per rotated token.
 */
function authorization(
  slack: ConnectedSlack,
  deps: Parameters<typeof distributedApp>[1],
):
  | { bolt: { token: string }; distributed?: undefined }
  | { bolt: Pick<DistributedApp, 'authorize'>; distributed: DistributedApp } {
  if (slack.auth === 'token') return { bolt: { token: slack.botToken } };
  const distributed = distributedApp(slack.oauth, deps);
  return { bolt: { authorize: tokenless(distributed.authorize) }, distributed };
}

/**
 * Routes Bolt's own log lines into our structured logger, except its debug lines: Bolt, its Web API client and
 * the Socket Mode client print whole request and response bodies there (answers, tool arguments and output),
 * so they are dropped at every LOG_LEVEL. Bolt is told its level is INFO so it skips building them.
 */
function boltLogger(logger: Logger): BoltLogger {
  const child = logger.child({ component: 'bolt' });
  return {
    debug: () => undefined,
    info: (...msg: unknown[]) => child.info(msg.map(String).join(' ')),
    warn: (...msg: unknown[]) => child.warn(msg.map(String).join(' ')),
    error: (...msg: unknown[]) => child.error(msg.map(String).join(' ')),
    setLevel: () => undefined,
    getLevel: () => LogLevel.INFO,
    setName: () => undefined,
  };
}
