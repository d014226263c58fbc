// The Slack side as one part: the Bolt app and our HTTP server (app.ts), the surface the relay posts cards
// through, the App Home inbox, open forms, URL completions and tool results, and every listener. The
// composition root builds it, hands it the relay and the tools (listen), then starts it.
import type { RequestListener } from 'node:http';
import type { ConnectedSlack, SlackPolicy } from '../config/index.js';
import { systemClock, type Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { type Connections, type ServerStatus, type SignInPrompter, type ToolResult } from '../mcp/index.js';
import type { Answering } from '../answering/service.js';
import type { ToolRunner } from '../relay/sources/mcp.js';
import type { Question } from '../relay/types.js';
import type { PostAckWork } from './ack-gate.js';
import { createSlackApp, type SlackApp, type SlackObserver } from './app.js';
import type { Audience } from './audience.js';
import { checkFormSchema, checkUrl, refuseSecretFields } from './checks.js';
import type { Mount } from './http-server.js';
import { readiness } from './readiness-body.js';
import { RedisMemoryLog } from './redis-memory-log.js';
import { HomeTab } from './home.js';
import { OpenModals } from './open-modals.js';
import { retryingMessages } from './messages.js';
import { callbackRoute, lateSignIn, type SignInLate } from './sign-in-wiring.js';
import type { Outbox } from './outbox/index.js';
import type { SlackState } from './state/index.js';
import type { SlackSurface } from './surface.js';
import { RunCancels } from './run-cancels.js';
import { ToolResults, type ToolRun } from './tool-results.js';
import { UrlCompletions } from './url-completions.js';
import { Uninstalls, type EndQuestion, type WorkspaceQuestions } from './uninstalls.js';
import { PatternTimeouts } from '../pattern-timeouts.js';

export interface SlackOptions {
  config: ConnectedSlack;
  logger: Logger;
  /** Card posts and updates go through it: it owns retries, Retry-After and pacing. */
  outbox: Outbox;
  /** Redis state of the Slack side (event deliveries seen, installations, recent answers, open forms). */
  state: SlackState;
  /**
   * The question store: a person's pending questions, soonest deadline first (their App Home inbox), and the
   * pending questions of a workspace the app left, ended (app_uninstalled, tokens_revoked).
   */
  store: { pendingFor(userId: string): Promise<Question[]> } & WorkspaceQuestions;
  /** Each server's `slack` policy (routing, answerers, review, reminders). */
  policyOf: (server: string) => SlackPolicy;
  /** True once the bot serves, until it starts draining: /readyz needs it. */
  serving: () => boolean;
  /**
   * True once the bot has started, also while it stops: /healthz (liveness) answers 200 then. A replica draining
   * after SIGTERM is alive and finishing its work; a failing liveness probe would have it restarted mid-stop.
   */
  started: () => boolean;
  /** Each MCP server's connection state, shown by /readyz (not required for readiness). */
  servers: () => ServerStatus[];
  /** More GET routes of the bot's HTTP server by exact path (GET /metrics). */
  routes?: Record<string, RequestListener>;
  /** Times Socket Mode's reconnects, post-ack waits and Connect links' expiry; default the system clock. */
  clock?: Clock;
  /** Metrics hooks: each Web API call and each answered Slack request. */
  observe?: SlackObserver;
  /**
   * Per-person sign-in to the servers that need it (issue #20): `/mcp connect|disconnect`, the App Home's
   * connections and the callback route at CALLBACK_PATH. Absent when no server needs sign-in.
   */
  connections?: Connections;
  /**
   * ELICIT_RELAY_PUBLIC_URL without a trailing "/", given with `connections`: start-up's log names Sign in with
   * Slack's redirect URL from it (sign-in-routes.ts).
   */
  publicUrl?: string;
}

export interface Slack {
  /** Where the relay posts and updates cards. */
  surface: SlackSurface;
  /** Tells a person to sign in (a DM with a Connect button); present when `connections` was given. */
  signIn?: SignInPrompter;
  /** Who may answer a server's question (the relay's AnswererResolver). */
  audience: Pick<Audience, 'answerersFor' | 'answerersTo'>;
  /**
   * The Enterprise Grid org whose org-wide installation serves workspace `teamId` (none of its own), learnt by
   * asking the org installations when no request from it named it yet; undefined when none does.
   */
  servingOrg(teamId: string): Promise<string | undefined>;
  /** -32042 links being waited on (the MCP sink reports completions here). */
  completions: UrlCompletions;
  /** Where other work waits while Slack's requests wait for their acks (ack-gate.ts). */
  postAck: PostAckWork;
  /** What Slack can show; the relay asks before it stores a question. */
  checks: {
    schema: (requestedSchema: unknown) => unknown;
    url: (url: string) => void;
    /** Throws RelayError('invalid_schema') for a form whose fields look like secrets. */
    refuseSecrets: (requestedSchema: unknown) => void;
  };
  /**
   * Registers every listener; call once the relay and the tools exist. Answers `/mcp run`'s own run (the
   * person's place, progress and result post), for calls started elsewhere (the API).
   */
  /** `end`: the relay's one way a question ends (the questions of a workspace the app left end through it). */
  listen(deps: { answering: Answering; tools: ToolRunner; end: EndQuestion }): {
    runTool: (run: ToolRun) => Promise<ToolResult>;
  };
  /**
   * Starts the outbox worker, the Socket Mode connection or HTTP server (on `host`, default every interface);
   * resolves with the bound port.
   */
  start(port: number, mounts?: readonly Mount[], host?: string): Promise<{ port: number }>;
  /**
   * Stops taking Slack's requests (closes the HTTP server, disconnects Socket Mode) and sweeping expired Connect
   * links, once the sweep under way finished.
   */
  stop(): Promise<void>;
  /** Waits for the work question events started (Home refreshes, retired forms) and stops URL watches. */
  settle(): Promise<void>;
}

/** What Slack can show, asked by the relay before it stores a question. */
const CHECKS: Slack['checks'] = {
  schema: checkFormSchema,
  url: checkUrl,
  refuseSecrets: (requestedSchema) => refuseSecretFields(checkFormSchema(requestedSchema)),
};

export function createSlack(options: SlackOptions): Slack {
  // The callback route is built before the app and the prompter after it (it posts through the app's surface).
  const late: SignInLate = {};
  const app = slackApp(options, { ...options.routes, ...callbackRoute(options, late) });
  const { surface } = app;
  const { home, modals } = observers(app, options);
  const completions = new UrlCompletions();
  const signIn = lateSignIn(app, options, late);
  return {
    surface,
    ...(signIn ? { signIn: signIn.prompter } : {}),
    audience: surface.audience,
    servingOrg: (teamId) => app.clients.servingOrg?.(teamId) ?? Promise.resolve(undefined),
    completions,
    postAck: app.postAck,
    checks: CHECKS,
    listen: ({ answering, tools, end }) => {
      const results = toolResults(app, options, { tools, completions });
      const uninstalls = uninstallsOf(options, end, app.orgs);
      const patterns = new PatternTimeouts(options.logger);
      const deps = { answering, home, modals, tools, results, uninstalls, patterns };
      app.listen({ ...deps, ...(signIn ? { signIn } : {}) });
      return { runTool: (run) => results.run(run) };
    },
    start: async (port, mounts, host) => {
      const started = await app.start(port, mounts, host);
      signIn?.expiries.start();
      return started;
    },
    stop: async () => {
      await signIn?.expiries.stop();
      await app.stop();
    },
    // Runs once the HTTP server and the MCP sessions are closed, so no new work starts; Redis and the outbox
    // close after it, so the Home refreshes and form updates still in flight can finish.
    settle: async () => {
      completions.close();
      await home.close();
      await modals.settled();
    },
  };
}

/** The Bolt app and our HTTP server, serving `routes` beside the probes. */
function slackApp(options: SlackOptions, routes: Record<string, RequestListener>): SlackApp {
  const memoryLog = new RedisMemoryLog({ logger: options.logger, clock: options.clock ?? systemClock });
  const app = createSlackApp({
    slack: options.config,
    logger: options.logger,
    outbox: options.outbox,
    state: options.state,
    isLive: options.started,
    isPending: async (id) => (await options.store.get(id))?.state === 'pending',
    // `app` exists by the time /readyz is asked: the HTTP server starts in app.start().
    readiness: () => readiness(options, app.socketMode, memoryLog),
    policyOf: options.policyOf,
    routes,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.observe ? { observe: options.observe } : {}),
  });
  return app;
}

/** The App Home inbox and the open forms, each following every question's start and end. */
function observers(app: SlackApp, options: SlackOptions): { home: HomeTab; modals: OpenModals } {
  const { surface, clients } = app;
  const { state, logger } = options;
  const home = new HomeTab({
    clients,
    pendingFor: (userId) => options.store.pendingFor(userId),
    history: state,
    hashes: state,
    ...(options.connections ? { connections: options.connections } : {}),
    locales: surface.locales,
    logger,
    slot: (teamId) => options.outbox.slotFor('views.publish', teamId),
  });
  const modals = new OpenModals({
    records: state,
    questions: options.store,
    clients,
    locales: surface.locales,
    logger,
  });
  surface.observe(home);
  surface.observe(modals);
  return { home, modals };
}

/** What the app leaving a workspace ends: its OAuth installation, when it has one, and its pending questions. */
function uninstallsOf(
  { config, state, store, logger }: SlackOptions,
  end: EndQuestion,
  orgs: SlackApp['orgs'],
): Uninstalls {
  return new Uninstalls({
    ...(config.auth === 'oauth' ? { installations: state.installations } : {}),
    ...(orgs ? { orgs } : {}),
    questions: store,
    end,
    logger,
  });
}

/** Runs a tool for a person and shows its progress and result (`/mcp run`, Retry, the arguments form). */
function toolResults(
  { surface, clients, postAck }: SlackApp,
  options: SlackOptions,
  deps: { tools: ToolRunner; completions: UrlCompletions },
): ToolResults {
  return new ToolResults({
    clients,
    messages: retryingMessages(clients),
    locales: surface.locales,
    dmOf: (userId, teamId) => surface.dmOf(userId, teamId),
    // A call starts an MCP session or takes one of its turns: CPU that waits while Slack's requests wait for acks.
    callTool: async (call) => {
      await postAck.turn();
      return deps.tools.callTool(call);
    },
    warm: (server, person) => deps.tools.warm(server, person),
    routesToThread: (server) => options.policyOf(server).route === 'thread',
    completions: deps.completions,
    claimRetry: (channel, ts) => options.state.claimRetry(channel, ts),
    claimCommand: (triggerId) => options.state.claimCommand(triggerId),
    cancels: new RunCancels({
      marks: options.state.runCancelMarks,
      messages: options.state.runMessages,
      clock: options.clock ?? systemClock,
      logger: options.logger,
    }),
    logger: options.logger,
  });
}
