// The Automations API's front door: startApi opens what the API needs in Redis (the ended-stream reader, the
// idempotency keys), builds the router and returns it as a mount for the bot's HTTP server, with the
// ended-events port other parts (webhooks, audit) consume. With no client configured the API is off.
import { servesSeveralWorkspaces, type AppConfig } from '../config/index.js';
import type { Lifecycle } from '../lifecycle.js';
import type { Logger } from '../logger.js';
import { RedisConnections, endClient, keys, type Keys, type RedisClient } from '../redis/index.js';
import type { RateLimit, Relay, RelayClock } from '../relay/relay.js';
import { openQuestion, type AnswererResolver } from '../relay/sources/intake.js';
import type { ToolRunner } from '../relay/sources/mcp.js';
import type { CallRunnerDeps } from './call-runner.js';
import { startCalls, type CallsPart } from './start-calls.js';
import type { StoredQuestion } from '../store/index.js';
import type { Mount } from '../slack/index.js';
import type { AuditReader } from './audit.js';
import { Clients } from './auth.js';
import { EndedEvents } from './ended.js';
import { RedisEndpointCalls } from './endpoint-calls.js';
import { Idempotency } from './idempotency.js';
import { mcpEndpointMount } from './mcp-endpoint.js';
import type { QuestionsDeps } from './questions.js';
import type { CallsDeps } from './calls.js';
import { apiRouter, API_PREFIX } from './router.js';
import { allowListOf, refuseCallbackUrl } from '../webhooks/index.js';
import { apiTimeoutMs } from './settings.js';
import { withServingOrg, type ServingOrg } from './workspace.js';

/** Without ELICIT_RELAY_WEBHOOK_SECRET no replica delivers (src/webhooks/start.ts): a callback would never come. */
const UNSIGNED_WEBHOOKS =
  'webhooks are off: ELICIT_RELAY_WEBHOOK_SECRET is not set, so nothing would be sent';
export { EndedEvents, type EndedEvent } from './ended.js';
export { questionView } from './questions.js';

export interface ApiDeps {
  relay: Pick<Relay, 'open' | 'end'>;
  answerers: Pick<AnswererResolver, 'answerersTo'>;
  store: {
    get(id: string): Promise<StoredQuestion | undefined>;
    /** The per-client rate limit's counter, shared by questions and calls (QuestionStore.admit). */
    admit(name: string, limit: RateLimit): Promise<void>;
  };
  checkSchema: (requestedSchema: unknown) => unknown;
  /** Runs the gateway servers' tools for POST /mcp. */
  tools: Pick<ToolRunner, 'listTools' | 'callTool'>;
  holderId: string;
  clock: RelayClock;
  logger: Logger;
  /** The audit trail GET /api/v1/audit reads, and calls are recorded in. */
  audit: AuditReader & CallRunnerDeps['audit'];
  /** `/mcp run`'s own run (the Slack side's): calls on a person's behalf go through it. */
  runTool: CallRunnerDeps['runTool'];
  /** Whether an API call waits in an open durable 2026 round (the round store's `ofCall`). */
  inRound?: CallRunnerDeps['inRound'];
  /** Hears each answered API request (route template, method, status), for metrics. */
  observe?: (route: string, method: string, status: number) => void;
  /** Whether a person has signed in to a server that needs it; absent: no server does. */
  connected?: CallsDeps['connected'];
  /** The org whose org-wide installation serves a workspace, kept in the origin of what is asked there. */
  servingOrg?: ServingOrg;
}

export interface RunningApi {
  /** Handlers for the bot's HTTP server; none when the API is off. */
  mounts: Mount[];
  /** Question and call ends across replicas (see ended.ts for the contract). */
  ended: EndedEvents;
  /** The relay's hook that lists a call's questions on it (does nothing when the API is off). */
  questionCreated: CallsPart['questionCreated'];
  /** An ended call's webhook delivery (none when the API is off). */
  callEnded: CallsPart['callEnded'];
  /** Resumes an API call from its durable round taken over by this replica (its record ends here). */
  resumeCall: CallsPart['resumeCall'];
}

const API_OFF = { questionCreated: () => undefined, callEnded: () => Promise.resolve(undefined) };

export async function startApi(config: AppConfig, deps: ApiDeps, parts: Lifecycle): Promise<RunningApi> {
  const k = keys(config.redis.prefix);
  const connections = new RedisConnections(config.redis, deps.logger);
  const ended = await startEnded(connections, k, deps, parts);
  const clients = new Clients(config.api.clients);
  // With the API off no call has a record; a round naming one (the API was on before) still runs to its end.
  const runOnly = async (run: Parameters<CallsPart['resumeCall']>[0]): Promise<void> => {
    await deps.runTool(run);
  };
  if (!clients.enabled) return { mounts: [], ended, ...API_OFF, resumeCall: runOnly };
  const redis = await connections.command(k.connectionName('api', deps.holderId));
  parts.push('API connection', () => endClient(redis, true));
  const questions = questionsPart(config, deps, { redis, keys: k, ended });
  const admit: CallsDeps['admit'] = (name, limit) => deps.store.admit(name, limit);
  const calls = startCalls(config, deps, { redis, keys: k, questions, admit }, parts);
  const observe = deps.observe ? { observe: deps.observe } : {};
  // A call's questions are read and withdrawn by the client that started the call (its record names it).
  const callClient = async (id: string) => (await calls.routes.get(id))?.client;
  const handler = apiRouter({
    clients,
    logger: deps.logger,
    questions: { ...questions, callClient },
    calls: calls.routes,
    audit: deps.audit,
    ...observe,
  });
  const endpoint = endpointMount(config, deps, { clients, questions, redis, keys: k });
  return {
    mounts: [{ prefix: API_PREFIX, handler }, endpoint],
    ended,
    questionCreated: calls.questionCreated,
    callEnded: calls.callEnded,
    resumeCall: calls.resumeCall,
  };
}

/** The ended stream's reader of this replica (on its own blocking connections), started; stops with `parts`. */
async function startEnded(
  connections: RedisConnections,
  k: Keys,
  deps: ApiDeps,
  parts: Lifecycle,
): Promise<EndedEvents> {
  const ended = new EndedEvents({
    connect: (role) => connections.blocking(k.connectionName(role, deps.holderId)),
    key: k.ended,
    consumer: deps.holderId,
    lease: (holder) => k.lease(holder),
    logger: deps.logger,
  });
  await ended.start();
  parts.push('ended events', () => ended.stop());
  return ended;
}

/** What the question routes (and POST /mcp's ask_human) do: open, read, end, with callbacks and idempotency. */
function questionsPart(
  config: AppConfig,
  deps: ApiDeps,
  shared: { redis: RedisClient; keys: Keys; ended: EndedEvents },
): QuestionsDeps {
  const k = shared.keys;
  const allowed = allowListOf(config.api.webhookHosts);
  return {
    open: async (request, context) =>
      openQuestion(deps, request, await withServingOrg(context, deps.servingOrg)),
    get: (id) => deps.store.get(id),
    end: (id, outcome, reason) => deps.relay.end(id, outcome, reason),
    checkSchema: (schema) => void deps.checkSchema(schema),
    timeoutMs: apiTimeoutMs,
    refuseCallback: (callback) =>
      refuseCallbackUrl(callback, allowed)?.reason ??
      (config.api.webhookSecret === undefined ? UNSIGNED_WEBHOOKS : undefined),
    ended: shared.ended,
    idempotency: new Idempotency(shared.redis, (client, key) => k.idempotency(client, key), deps.clock),
    clock: deps.clock,
    severalWorkspaces: servesSeveralWorkspaces(config.slack),
  };
}

/** POST /mcp: ask_human and the gateway servers' tools, for the API's clients. */
function endpointMount(
  config: AppConfig,
  deps: ApiDeps,
  shared: { clients: Clients; questions: QuestionsDeps; redis: RedisClient; keys: Keys },
): Mount {
  const { redis, keys: k } = shared;
  const gatewayServers = config.servers.filter((s) => s.gateway).map((s) => s.name);
  return mcpEndpointMount({
    clients: shared.clients,
    questions: shared.questions,
    gateway: { servers: gatewayServers, tools: deps.tools },
    calls: new RedisEndpointCalls(redis, (client, id) => k.endpointCall(client, id)),
    ...(config.api.gatewayAs ? { gatewayAs: config.api.gatewayAs } : {}),
    ...(config.api.gatewayTeam ? { gatewayTeam: config.api.gatewayTeam } : {}),
    ...(deps.servingOrg ? { servingOrg: deps.servingOrg } : {}),
    logger: deps.logger,
  });
}
