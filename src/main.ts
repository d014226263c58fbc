// The composition root: builds the parts (Redis state → Slack side → relay → MCP hub) and starts them. Each
// long-lived part pushes how to stop it onto one Lifecycle as it starts, so stop() runs in reverse.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { SlackAppConfig } from './config/index.js';
import type { Lifecycle } from './lifecycle.js';
import type { Logger } from './logger.js';
import type { McpHub, ToolSummary } from './mcp/index.js';
import { startQuestionWork } from './persistence.js';
import { roundKeeper } from './rounds/index.js';
import { Answering } from './answering/service.js';
import { startApi, type ApiDeps, type RunningApi } from './api/index.js';
import { auditedToolRuns } from './audit/index.js';
import { systemClock, type Clock } from './clock.js';
import { Relay, observeAll, type RelayObserver } from './relay/relay.js';
import { Intake } from './relay/sources/intake.js';
import { mcpToolRunner, startMcpServers, type ToolRunner } from './relay/sources/mcp.js';
import { metricSources, metricsRoute } from './metrics/index.js';
import { createSlack, type Mount, type Slack, type SlackOptions } from './slack/index.js';
import { openSignIns, type SignIns } from './sign-ins.js';
import { PatternTimeouts } from './pattern-timeouts.js';
import { openStoreSide, type Wiring } from './wiring/store-side.js';
import { startRounds, startWebhookDeliveries, type RunTool } from './wiring/ended-work.js';
import { startStoppable, type StartUp } from './start-up.js';

export interface RunningRelay {
  /** The HTTP port actually bound (useful with PORT=0). */
  port: number;
  holderId: string;
  /** The tools `server` offers, as `userId`'s session lists them (the sandbox page shows them). */
  listTools(server: string, userId: string): Promise<ToolSummary[]>;
  /**
   * A stop's first moment, before any part stops: the MCP servers' exits stop counting as failures (a signal
   * to the process group reaches the stdio servers as it reaches the bot). For a stop that begins elsewhere
   * (the sandbox closes its page first); stop() begins with it.
   */
  closing(): void;
  /** Graceful stop: refuse new work, close Slack, MCP sessions, workers and connections. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /**
   * A stop during start-up (SIGTERM, SIGINT): the MCP hub is told at once, no part is started any more, those
   * started are stopped, and start() rejects with StartStoppedError (src/start-up.ts).
   */
  signal?: AbortSignal;
  /** Times a stop's shutdown delay (ELICIT_RELAY_SHUTDOWN_DELAY); default the system clock. */
  clock?: Pick<Clock, 'schedule'>;
  /** The port people open when it is not the bot's (the sandbox's page): the ready line's `port`, beside `botPort`. */
  pagePort?: number;
}

/** Starts the bot; a part that fails to start leaves none running (the ones before it are stopped). */
export function start(
  config: SlackAppConfig,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningRelay> {
  const stoppable = { logger, ...(options.signal ? { signal: options.signal } : {}) };
  const clock = options.clock ?? systemClock;
  const { pagePort } = options;
  return startStoppable(stoppable, (parts, startUp) =>
    startParts(config, logger, { parts, startUp, clock }, pagePort),
  );
}

/** Serving: taking new work (readiness); started: up, also while it stops (liveness). */
interface Liveness {
  serving: boolean;
  started: boolean;
}

/**
 * Stopping runs the pushes last first; why each position matters:
 * readiness off (/readyz 503: new work goes elsewhere) → the shutdown delay, when set (everything still serves
 * while load balancers and Kubernetes' endpoints catch up with the stop) → question workers drained (no
 * timeout, reminder or sweep starts here) → waiting questions ended as call_ended (a durable round's stay
 * pending for a survivor) while Slack's requests are still served → Slack's HTTP server or Socket Mode closed
 * → durable retries out answered (at most 10 s; the rest left to a survivor) while the API's calls and
 * connection still work → MCP sessions closed (their calls ended) → the Slack side's background work settled
 * → outbox, Slack state and question store closed last (openState), since everything above uses them.
 */
async function startParts(
  config: SlackAppConfig,
  logger: Logger,
  { parts, startUp, clock }: { parts: Lifecycle; startUp: StartUp; clock: Pick<Clock, 'schedule'> },
  pagePort?: number,
): Promise<RunningRelay> {
  const holderId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const live: Liveness = { serving: false, started: false };
  // The API lists a call's questions on it; it starts after the relay, which tells it of new questions.
  const late: { api?: RunningApi } = {};
  const w = await startUp.step(() => openStoreSide(config, logger, parts, holderId));
  const slackLive = {
    serving: () => live.serving,
    started: () => live.started,
    servers: () => hub.status(),
  };
  const { slack, signIns } = await startUp.step(() => buildSlackSide(w, slackLive));
  const apiHears: RelayObserver = {
    created: (question) => late.api?.questionCreated(question),
    ended: () => undefined,
  };
  const { relay, intake } = buildRelay(w, slack, apiHears);
  const hub: McpHub = startUp.step(() => startHub(w, { slack, signIns, relay, intake, startUp }));
  const { tools, runTool } = listen(w, { slack, relay, hub });
  const deps = apiDeps(w, { slack, signIns, relay, tools, runTool });
  const api = await startUp.step(() => startApi(config, deps, parts));
  late.api = api;
  await startUp.step(() => startRounds(w, { hub, api, runTool }));
  await startUp.step(() => startWebhookDeliveries(w, api));
  const { port } = await serve(w, { slack, relay, mounts: api.mounts, live, startUp, clock });
  const ports = pagePort === undefined ? { port } : { port: pagePort, botPort: port };
  logger.info({ ...ports, holderId, servers: hub.serverNames() }, 'elicit-relay is ready');
  return {
    port,
    holderId,
    listTools: (server, userId) => hub.listTools(server, { userId }),
    closing: () => hub.closing(),
    stop: () => {
      hub.closing();
      return parts.stop();
    },
  };
}

/**
 * The Slack side, after MCP sign-in (its commands, App Home and callback use it). The hub's part of sign-in
 * needs the Slack side's Connect prompter, so it is made once that exists (startHub).
 */
async function buildSlackSide(
  w: Wiring,
  live: Pick<SlackOptions, 'serving' | 'started' | 'servers'>,
): Promise<{ slack: Slack; signIns: SignIns }> {
  const { config, logger, parts, policies, metrics } = w;
  const signIns = await openSignIns(config, { holderId: w.holderId, logger }, parts);
  const slack = createSlack({
    ...w.opened,
    config: config.slack,
    logger,
    policyOf: (server) => policies.of(server).slack,
    ...live,
    routes: { '/metrics': metricsRoute(metrics, logger) },
    observe: metrics,
    ...(signIns.connections ? { connections: signIns.connections } : {}),
    ...(config.signIn?.publicUrl ? { publicUrl: config.signIn.publicUrl } : {}),
  });
  parts.push('Slack background work', () => slack.settle());
  return { slack, signIns };
}

/** The relay over the question store and the Slack surface, and the intake that asks through it. */
function buildRelay(w: Wiring, slack: Slack, apiHears: RelayObserver): { relay: Relay; intake: Intake } {
  const { opened, policies } = w;
  const relay = new Relay({
    store: opened.store,
    links: opened.store.roundLinks(),
    surface: slack.surface,
    checkSchema: slack.checks.schema,
    checkUrl: slack.checks.url,
    logger: w.logger,
    clock: systemClock,
    reminderTimes: (timeoutMs, now, server) => policies.reminderTimes(timeoutMs, now, server),
    observer: observeAll(w.metrics.relay, w.audit.questions, apiHears),
  });
  const intake = new Intake({
    relay,
    answerers: slack.audience,
    policies,
    refuseSecrets: slack.checks.refuseSecrets,
  });
  return { relay, intake };
}

/** The MCP hub: every configured server's connection, its elicitations asked through the intake. */
function startHub(
  w: Wiring,
  sides: { slack: Slack; signIns: SignIns; relay: Relay; intake: Intake; startUp: StartUp },
): McpHub {
  const { slack, relay, intake } = sides;
  const { logger, metrics, holderId, opened } = w;
  const { completions } = slack;
  const leaseMs = w.timings.lease.ttlMs;
  const auth = sides.signIns.hubAuth(slack.signIn);
  const hub = startMcpServers(w.config.servers, {
    ...(auth === undefined ? {} : { auth }),
    intake,
    relay,
    completions,
    logger,
    onStatus: metrics.mcpStatus,
    // A session's handshake and calls take the event loop only once Slack's requests have their acks.
    turn: () => slack.postAck.afterAcks(),
    rounds: roundKeeper({ store: w.roundStore, claimant: holderId, clock: systemClock, logger, leaseMs }),
  });
  const personal = (server: string): boolean => auth?.personal?.(server) ?? false;
  const { outbox, state, store } = opened;
  metrics.watch(metricSources({ relay, outbox, hub, state, personal, timeouts: store }));
  w.parts.push('MCP sessions', () => hub.close());
  // A stop during start-up: its servers may be exiting on the same signal (Ctrl-C reaches the process group).
  sides.startUp.onStop(() => hub.closing());
  return hub;
}

/** People's answers and `/mcp run`: the Slack side's listeners, given the answering service and the tools. */
function listen(
  w: Wiring,
  sides: { slack: Slack; relay: Relay; hub: McpHub },
): { tools: ToolRunner; runTool: RunTool } {
  const { slack, relay } = sides;
  const answering = new Answering({
    store: w.opened.store,
    relay,
    mayAnswer: (question, userId) => slack.surface.audience.mayAnswer(question, userId),
    policyOf: (server) => w.policies.of(server).slack,
    clock: systemClock,
    patterns: new PatternTimeouts(w.logger),
  });
  const tools = mcpToolRunner(sides.hub);
  // A person's own runs are audited here; an API call's run is audited by the API's call runner.
  const { runTool } = slack.listen({
    answering,
    tools: auditedToolRuns(tools, w.audit, systemClock),
    end: (id, outcome, reason) => relay.end(id, outcome, reason),
  });
  return { tools, runTool };
}

/** What the Automations API is given: the relay, the store, the tools and `/mcp run`'s own run. */
function apiDeps(
  w: Wiring,
  sides: { slack: Slack; signIns: SignIns; relay: Relay; tools: ToolRunner; runTool: RunTool },
): ApiDeps {
  const { slack, signIns } = sides;
  const { opened, roundStore, audit, holderId, logger } = w;
  return {
    relay: sides.relay,
    answerers: slack.audience,
    store: opened.store,
    checkSchema: slack.checks.schema,
    tools: sides.tools,
    runTool: sides.runTool,
    observe: w.metrics.apiRequest,
    connected: (server, person) => signIns.connected(server, person),
    servingOrg: (teamId) => slack.servingOrg(teamId),
    inRound: async (callId) => (await roundStore.ofCall(callId)) !== undefined,
    audit,
    holderId,
    clock: systemClock,
    logger,
  };
}

/** Slack's HTTP server or Socket Mode (with the API's mounts), the store's workers, then readiness on. */
async function serve(
  w: Wiring,
  sides: {
    slack: Slack;
    relay: Relay;
    mounts: readonly Mount[];
    live: Liveness;
    startUp: StartUp;
    clock: Pick<Clock, 'schedule'>;
  },
): Promise<{ port: number }> {
  const { slack, relay, live, startUp } = sides;
  const { parts } = w;
  const { port } = await startUp.step(() => slack.start(w.config.port, sides.mounts, w.config.host));
  parts.push('Slack requests', () => slack.stop());
  parts.push('waiting questions', () => relay.endAllWaiting('call_ended'));
  const redeliverAfterMs = w.config.api.redeliverAfterMs;
  const work = { relay, logger: w.logger, redeliverAfterMs, orphanSweepEveryMs: w.timings.sweepEveryMs };
  await startUp.step(() => startQuestionWork(w.opened.store, work, parts));
  startUp.check();
  live.serving = true;
  live.started = true;
  pushShutdownDelay(w, sides.clock);
  parts.push('readiness', () => void (live.serving = false));
  return { port };
}

/**
 * ELICIT_RELAY_SHUTDOWN_DELAY: once readiness is off, the stop waits this long before any other part stops, so
 * the requests that a load balancer or Kubernetes' endpoints still send meanwhile are served, not refused.
 * Spent inside the stop's STOP_WITHIN_MS (the setting is at most 10 s of its 20 s).
 */
function pushShutdownDelay(w: Wiring, clock: Pick<Clock, 'schedule'>): void {
  const delayMs = w.config.shutdownDelayMs;
  if (delayMs === undefined) return;
  w.parts.push('shutdown delay', () => {
    w.logger.info(
      { delayMs },
      'not ready (/readyz 503); serving until the shutdown delay ends, then stopping',
    );
    return new Promise<void>((resolve) => void clock.schedule(resolve, delayMs));
  });
}
