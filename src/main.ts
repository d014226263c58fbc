// Wires the parts together: store (Redis, BullMQ) → relay core → Slack surface and listeners → MCP hub.
// Everything is built here and passed in; nothing below constructs its own collaborators.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { DEFAULT_SLACK_POLICY, type AppConfig, type ServerConfig, type SlackPolicy } from './config/index.js';
import type { Logger } from './logger.js';
import { probeRedis } from './readiness.js';
import {
  McpClientError,
  McpHub,
  type ElicitationSink,
  type McpServerSpec,
  type ToolSummary,
} from './mcp/index.js';
import { Relay, halfTimeReminder } from './relay/relay.js';
import {
  HomeTab,
  OpenModals,
  Outbox,
  SlackState,
  ToolResults,
  UrlCompletions,
  checkFormSchema,
  checkUrl,
  connectionOf,
  createSlackApp,
  refuseSecretFields,
  type Audience,
  type SlackApp,
  type ToolRunner,
} from './slack/index.js';
import { QuestionStore, reminderTimes } from './store/index.js';

export interface RunningRelay {
  /** The HTTP port actually bound (useful with PORT=0). */
  port: number;
  holderId: string;
  /** The tools `server` offers, as `userId`'s session lists them (the sandbox page shows them). */
  listTools(server: string, userId: string): Promise<ToolSummary[]>;
  /** Graceful stop: refuse new work, close Slack, MCP sessions, workers and connections. */
  stop(): Promise<void>;
}

export async function start(config: AppConfig, logger: Logger): Promise<RunningRelay> {
  const holderId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  let ready = false;
  const store = await QuestionStore.open({
    url: config.redis.url,
    prefix: config.redis.prefix,
    holderId,
    ...retentionOf(config),
    logger,
  });
  // The lease comes first: a holder is only ever swept once it has one, so no question predates it.
  await store.startLease();
  const outbox = await Outbox.open({ url: config.redis.url, prefix: config.redis.prefix, logger });
  const state = await SlackState.open({
    url: config.redis.url,
    prefix: config.redis.prefix,
    holderId,
    ...retentionOf(config),
    logger,
  });
  const slack = createSlackApp({
    ...config.slack,
    connection: connectionOf(config.slack),
    logger,
    outbox,
    state,
    isLive: () => ready,
    // Ready: serving (started, not draining) and Redis answers; each MCP server's state is shown, not required.
    policyOf: (server) => policyOf(config.servers, server),
    readiness: async () => {
      const redis = await probeRedis(() => state.answers());
      const servers = hub.status();
      return { ok: ready && redis === 'ok', serving: ready, redis, servers };
    },
  });
  const relay = new Relay({
    store,
    surface: slack.surface,
    checkSchema: checkFormSchema,
    checkUrl,
    logger,
    reminderTimes: (timeoutMs, now, server) => {
      const specs = policyOf(config.servers, server).reminders;
      return specs ? reminderTimes(specs, timeoutMs, now) : halfTimeReminder(timeoutMs, now);
    },
  });
  const completions = new UrlCompletions();
  const hub = new McpHub({
    servers: config.servers.map(toSpec),
    sink: elicitationSink(
      relay,
      { servers: config.servers, completions, audience: slack.surface.audience },
      logger,
    ),
    logger: logger.child({ component: 'mcp' }),
    onStatus: (status) => {
      if (status.state === 'connected') logger.info({ mcp: status }, 'MCP server connected');
      else logger.warn({ mcp: status }, 'MCP server unavailable');
    },
  });
  // Each server connects in the background; /mcp servers and /readyz show how far each got.
  hub.start();
  const { home, tools, results } = homeAndCommands(slack, {
    store,
    state,
    hub,
    completions,
    logger,
    servers: config.servers,
  });
  const modals = new OpenModals({
    records: state,
    clients: slack.clients,
    locales: slack.surface.locales,
    logger,
  });
  slack.surface.observe(modals);
  slack.listen({ relay, home, modals, tools, results });
  await store.startInbox((question) => relay.onFinished(question));
  await store.startTimeouts(async (id) => {
    await relay.end(id, { action: 'cancel' }, 'timed_out');
  });
  await store.startReminders((id, at) => relay.remind(id, at));
  // Questions of replicas that died: the survivor that ends one updates its card.
  store.startOrphanSweep((question) => slack.surface.showEnded(question));
  const { port } = await slack.start(config.port);
  ready = true;
  logger.info({ port, holderId, servers: hub.serverNames() }, 'elicit-relay is ready');
  return {
    port,
    holderId,
    listTools: (server) => hub.listTools(server),
    stop: async () => {
      ready = false;
      await store.drain();
      // Slack's requests and /readyz (503 now) are served until the waiting questions have ended.
      await relay.endAllWaiting('call_ended');
      await slack.stop();
      await hub.close();
      completions.close();
      await home.close();
      await modals.settled();
      await outbox.close();
      await state.close();
      await store.close();
    },
  };
}

/** The App Home inbox (following every question's start and end) and what the `/mcp` command runs tools with. */
function homeAndCommands(
  slack: SlackApp,
  deps: {
    store: QuestionStore;
    state: SlackState;
    hub: McpHub;
    completions: UrlCompletions;
    logger: Logger;
    servers: ServerConfig[];
  },
): { home: HomeTab; tools: ToolRunner; results: ToolResults } {
  const home = new HomeTab({
    clients: slack.clients,
    pendingFor: (userId) => deps.store.pendingFor(userId),
    history: deps.state,
    locales: slack.surface.locales,
    logger: deps.logger,
  });
  slack.surface.observe(home);
  const tools = toolRunner(deps.hub);
  const results = new ToolResults({
    clients: slack.clients,
    locales: slack.surface.locales,
    dmOf: (userId, teamId) => slack.surface.dmOf(userId, teamId),
    callTool: (call) => tools.callTool(call),
    routesToThread: (server) => policyOf(deps.servers, server).route === 'thread',
    completions: deps.completions,
    claimRetry: (channel, ts) => deps.state.claimRetry(channel, ts),
    logger: deps.logger,
  });
  return { home, tools, results };
}

function elicitationSink(
  relay: Relay,
  deps: {
    servers: ServerConfig[];
    audience: Pick<Audience, 'answerersFor'>;
    /** -32042 links being waited on: a completion may be one of theirs rather than a question's. */
    completions: UrlCompletions;
  },
  logger: Logger,
): ElicitationSink {
  const { audience, completions } = deps;
  const byName = new Map(deps.servers.map((s) => [s.name, s]));
  return {
    ask: async (request, ctx) => {
      // Who may answer is fixed when the question is asked (user groups resolved now) and stored with it.
      const answerers = await audience.answerersFor(ctx.server, ctx.origin);
      const common = {
        server: ctx.server,
        userId: ctx.origin.userId,
        origin: ctx.origin,
        message: request.message,
        timeoutMs: ctx.timeoutMs,
        signal: ctx.signal,
        ...rateLimitOf(byName.get(ctx.server)),
        ...(ctx.serverInfo ? { serverInfo: ctx.serverInfo } : {}),
        ...(answerers ? { answerers } : {}),
      };
      if (request.mode === 'url') {
        return relay.askUrl({ ...common, url: request.url, elicitationId: request.elicitationId });
      }
      if (byName.get(ctx.server)?.refuseSecrets) refuseSecretFields(checkFormSchema(request.requestedSchema));
      return relay.askForm({ ...common, requestedSchema: request.requestedSchema });
    },
    complete: (elicitationId, ctx) => {
      completions.completed(ctx.server, elicitationId);
      relay.completeUrl(ctx.server, elicitationId).catch((err: unknown) => {
        logger.warn({ err, server: ctx.server, elicitationId }, 'URL elicitation completion not shown');
      });
    },
  };
}

/** Expected MCP failures (unknown tool, server down, timeout) are results the person sees, not crashes. */
function toolRunner(hub: McpHub): ToolRunner {
  return {
    serverNames: () => hub.serverNames(),
    status: () => hub.status(),
    listTools: (server) => hub.listTools(server),
    callTool: async (input) => {
      try {
        return await hub.callTool(input);
      } catch (error) {
        if (error instanceof McpClientError) return { isError: true, text: error.message };
        throw error;
      }
    },
  };
}

function policyOf(servers: ServerConfig[], server: string): SlackPolicy {
  return servers.find((s) => s.name === server)?.slack ?? DEFAULT_SLACK_POLICY;
}

function rateLimitOf(server: ServerConfig | undefined): { rateLimit?: { max: number; perMs: number } } {
  return server?.ratePerMinute ? { rateLimit: { max: server.ratePerMinute, perMs: 60_000 } } : {};
}

function retentionOf(config: AppConfig): { retentionSec?: number } {
  return config.redis.retentionSec ? { retentionSec: config.redis.retentionSec } : {};
}

function toSpec(server: ServerConfig): McpServerSpec {
  return {
    name: server.name,
    transport: server.transport,
    elicitationTimeoutMs: server.elicitationTimeoutMs,
    elicitationMode: server.elicitationMode,
    ...(server.maxPending === undefined ? {} : { maxPending: server.maxPending }),
  };
}
