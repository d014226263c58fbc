// The composition root: builds the parts (Redis state → Slack side → relay → MCP hub) and starts them. Each
// long-lived part pushes how to stop it onto one Lifecycle as it starts, so stop() runs in reverse.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { SlackAppConfig } from './config/index.js';
import { Lifecycle } from './lifecycle.js';
import type { Logger } from './logger.js';
import { roundAnswersOf, type ToolSummary } from './mcp/index.js';
import { openRounds, openState, startQuestionWork } from './persistence.js';
import { roundKeeper, roundRecorder, startTakeOver, type ResumedCall } from './rounds/index.js';
import { ServerPolicies } from './policies.js';
import { Answering } from './answering/service.js';
import { questionView, startApi, type RunningApi } from './api/index.js';
import { auditedToolRuns, startAudit } from './audit/index.js';
import { systemClock } from './clock.js';
import { Relay, observeAll } from './relay/relay.js';
import { Intake } from './relay/sources/intake.js';
import { mcpToolRunner, startMcpServers } from './relay/sources/mcp.js';
import { Metrics, metricSources, metricsRoute } from './metrics/index.js';
import { startWebhooks, type GaveUp } from './webhooks/index.js';
import { createSlack } from './slack/index.js';
import { openSignIns } from './sign-ins.js';

export interface RunningRelay {
  /** The HTTP port actually bound (useful with PORT=0). */
  port: number;
  holderId: string;
  /** The tools `server` offers, as `userId`'s session lists them (the sandbox page shows them). */
  listTools(server: string, userId: string): Promise<ToolSummary[]>;
  /** Graceful stop: refuse new work, close Slack, MCP sessions, workers and connections. */
  stop(): Promise<void>;
}

export async function start(config: SlackAppConfig, logger: Logger): Promise<RunningRelay> {
  const parts = new Lifecycle({ logger });
  try {
    return await startParts(config, logger, parts);
  } catch (error) {
    // A part that failed to start leaves the ones before it running: stop those, then report the failure.
    await parts.stop().catch((err: unknown) => logger.error({ err }, 'stopping after a failed start'));
    throw error;
  }
}

/**
 * Stopping runs the pushes last first; why each position matters:
 * readiness off (/readyz 503: new work goes elsewhere) → question workers drained (no timeout, reminder or
 * sweep starts here) → waiting questions ended as call_ended (a durable round's stay pending for a survivor)
 * while Slack's requests are still served → Slack's HTTP server or Socket Mode closed → durable retries out
 * answered (at most 10 s; the rest left to a survivor) while the API's calls and connection still work → MCP
 * sessions closed (their calls ended) → the Slack side's background work settled → outbox, Slack state and question store
 * closed last (openState), since everything above uses them.
 */
async function startParts(config: SlackAppConfig, logger: Logger, parts: Lifecycle): Promise<RunningRelay> {
  const holderId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  let serving = false;
  // The API lists a call's questions on it; it starts after the relay, which tells it of new questions.
  const late: { api?: RunningApi } = {};
  const opened = await openState(config, { holderId, logger }, parts);
  const roundStore = await openRounds(config, { holderId, logger }, parts);
  const audit = await startAudit(config, { logger, clock: systemClock }, parts);
  const metrics = new Metrics(systemClock);
  const policies = new ServerPolicies(config.servers);
  // Sign-ins come before the Slack side (its commands, App Home and callback use them); the hub's part needs
  // the Slack side's Connect prompter, so it is made once that exists (hubAuth below).
  const signIns = await openSignIns(config, { holderId, logger }, parts);
  const slack = createSlack({
    ...opened,
    config: config.slack,
    logger,
    policyOf: (server) => policies.of(server).slack,
    serving: () => serving,
    servers: () => hub.status(),
    routes: { '/metrics': metricsRoute(metrics) },
    observe: metrics,
    ...(signIns.connections ? { connections: signIns.connections } : {}),
  });
  parts.push('Slack background work', () => slack.settle());
  const relay = new Relay({
    store: opened.store,
    links: opened.store.roundLinks(),
    surface: slack.surface,
    checkSchema: slack.checks.schema,
    checkUrl: slack.checks.url,
    logger,
    clock: systemClock,
    reminderTimes: (timeoutMs, now, server) => policies.reminderTimes(timeoutMs, now, server),
    observer: observeAll(metrics.relay, audit.questions, {
      created: (question) => late.api?.questionCreated(question),
      ended: () => undefined,
    }),
  });
  const intake = new Intake({
    relay,
    answerers: slack.audience,
    policies,
    refuseSecrets: slack.checks.refuseSecrets,
  });
  const { completions } = slack;
  const auth = signIns.hubAuth(slack.signIn);
  const hub = startMcpServers(config.servers, {
    ...(auth === undefined ? {} : { auth }),
    intake,
    relay,
    completions,
    logger,
    onStatus: metrics.mcpStatus,
    // A session's handshake and calls take the event loop only once Slack's requests have their acks.
    turn: () => slack.postAck.afterAcks(),
    rounds: roundKeeper({ store: roundStore, claimant: holderId, clock: systemClock, logger }),
  });
  metrics.watch(metricSources({ relay, outbox: opened.outbox, hub, state: opened.state }));
  parts.push('MCP sessions', () => hub.close());
  const answering = new Answering({
    store: opened.store,
    relay,
    mayAnswer: (question, userId) => slack.surface.audience.mayAnswer(question, userId),
    policyOf: (server) => policies.of(server).slack,
    clock: systemClock,
  });
  const tools = mcpToolRunner(hub);
  // A person's own runs are audited here; an API call's run is audited by the API's call runner.
  const { runTool } = slack.listen({ answering, tools: auditedToolRuns(tools, audit, systemClock) });
  const apiDeps = {
    relay,
    answerers: slack.audience,
    store: opened.store,
    checkSchema: slack.checks.schema,
    tools,
    runTool,
    observe: metrics.apiRequest,
    connected: (server: string, person: { teamId: string; userId: string }) =>
      signIns.connected(server, person),
    inRound: async (callId: string) => (await roundStore.ofCall(callId)) !== undefined,
  };
  const api = await startApi(config, { ...apiDeps, audit, holderId, clock: systemClock, logger }, parts);
  late.api = api;
  // Before the API's calls and connection stop: a durable retry that answers now ends its call as always.
  parts.push('durable retries out', () => hub.leave());
  // Rounds whose replica stopped: their retry is sent here and the result posted where the run was; an API
  // call's record ends here too.
  const resume = (call: ResumedCall): Promise<unknown> =>
    call.origin.callId === undefined ? runTool(call) : api.resumeCall(call);
  const takeOver = { store: roundStore, claimant: holderId, clock: systemClock, logger, resume };
  parts.push('rounds take-over', startTakeOver(takeOver));
  // Each round question's end is recorded in its round by one replica, so a round outlives its holder.
  const recordRounds = {
    ...takeOver,
    question: (id: string) => opened.store.get(id),
    answersOf: roundAnswersOf,
  };
  await api.ended.consume('rounds', roundRecorder(recordRounds));
  const webhookDeps = {
    get: (id: string) => opened.store.get(id),
    callEnded: api.callEnded,
    view: questionView,
    clock: systemClock,
    logger,
  };
  const onGaveUp = (gaveUp: GaveUp): Promise<void> => audit.webhookGaveUp(gaveUp);
  const onAttempt = metrics.webhookAttempt;
  await startWebhooks(config, { ...webhookDeps, ended: api.ended, onGaveUp, onAttempt }, parts);
  const { port } = await slack.start(config.port, api.mounts);
  parts.push('Slack requests', () => slack.stop());
  parts.push('waiting questions', () => relay.endAllWaiting('call_ended'));
  await startQuestionWork(opened.store, { relay }, parts);
  serving = true;
  parts.push('readiness', () => void (serving = false));
  logger.info({ port, holderId, servers: hub.serverNames() }, 'elicit-relay is ready');
  return {
    port,
    holderId,
    listTools: (server, userId) => hub.listTools(server, { userId }),
    stop: () => parts.stop(),
  };
}
