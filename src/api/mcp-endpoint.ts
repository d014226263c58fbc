// POST /mcp wired to the API (issue 16.8): the same bearer tokens and clients; `ask_human` is an API question
// (same validation, targets, card, answerers, timeouts) that the tool call waits on; the tools of servers marked
// `gateway: true` run for the person their `as` argument names (else the client's), so their elicitations
// reach that person in Slack (gateway-person.ts).
import type { Logger } from '../logger.js';
import {
  answerAsSent,
  EndpointRefusal,
  mcpEndpoint,
  type EndpointCall,
  type EndpointPorts,
  type GatewayTool,
  type HumanAnswer,
  type ToolCall,
  type ToolResult,
} from '../mcp/index.js';
import type { ToolRunner } from '../relay/sources/mcp.js';
import type { Question } from '../relay/types.js';
import type { Mount } from '../slack/index.js';
import type { ApiClient, Clients } from './auth.js';
import type { EndpointCalls } from './endpoint-calls.js';
import { withServingOrgOrWithout, type ServingOrg } from './workspace.js';
import { GatewayCancels } from './gateway-cancels.js';
import { ApiError, fromRelayError } from './errors.js';
import {
  gatewayPerson,
  listingPerson,
  withPersonArgument,
  type GatewayPersonDeps,
} from './gateway-person.js';
import { checkRequestedSchema, openContext, type QuestionCreate, type QuestionsDeps } from './questions.js';
import { MAX_NESTING, QUESTION_CREATE } from './schemas.js';
import { nestsDeeper, validator } from './validate.js';

export const MCP_ENDPOINT_PATH = '/mcp';

/** Extra wait past a question's deadline before its record is read again without an end event, in ms. */
const DEADLINE_GRACE_MS = 5_000;

/** ask_human's arguments: the API's question, without what only an HTTP caller uses (webhook, metadata). */
export const ASK_HUMAN_INPUT = {
  type: 'object' as const,
  additionalProperties: false,
  required: ['message', 'requestedSchema', 'to'],
  properties: {
    message: QUESTION_CREATE.properties.message,
    requestedSchema: QUESTION_CREATE.properties.requestedSchema,
    to: QUESTION_CREATE.properties.to,
    team: QUESTION_CREATE.properties.team,
    timeout: QUESTION_CREATE.properties.timeout,
  },
};

type AskHuman = Pick<QuestionCreate, 'message' | 'requestedSchema' | 'to' | 'team' | 'timeout'>;
const validAsk = validator<AskHuman>(ASK_HUMAN_INPUT);

export interface McpEndpointDeps {
  clients: Clients;
  questions: Pick<
    QuestionsDeps,
    'open' | 'get' | 'end' | 'checkSchema' | 'timeoutMs' | 'ended' | 'clock' | 'severalWorkspaces'
  >;
  /** The servers marked `gateway: true`, and the hub that runs their tools. */
  gateway: { servers: readonly string[]; tools: Pick<ToolRunner, 'listTools' | 'callTool'> };
  /** ask_human and gateway calls by their id within the host's session, for cancels that reach another replica. */
  calls: EndpointCalls;
  /** `api.gateway.as` and its team: whom gateway calls run for when the client names nobody. */
  gatewayAs?: string;
  gatewayTeam?: string;
  /** The org whose org-wide installation serves a workspace, kept in a gateway call's origin; absent: none. */
  servingOrg?: ServingOrg;
  logger: Pick<Logger, 'warn'>;
}

export function mcpEndpointMount(deps: McpEndpointDeps): Mount {
  return { prefix: MCP_ENDPOINT_PATH, handler: mcpEndpoint(endpointPorts(deps)) };
}

function endpointPorts(deps: McpEndpointDeps): EndpointPorts {
  const { calls, questions, logger } = deps;
  const gatewayCalls = new GatewayCancels({ calls, clock: questions.clock, logger });
  const client = (name: string): ApiClient => {
    const found = deps.clients.named(name);
    if (!found) throw new EndpointRefusal('unauthorized', `No API client ${name}.`);
    return found;
  };
  return {
    authenticate: (header) => deps.clients.fromAuthorization(header)?.name,
    askHumanSchema: ASK_HUMAN_INPUT,
    askHuman: (name, args, call) => askHuman(deps, client(name), args, call),
    cancelElsewhere: async (name, callId) => {
      const id = await deps.calls.questionOf(name, callId);
      if (id !== undefined) await deps.questions.end(id, { action: 'cancel' }, 'withdrawn');
      else await deps.calls.cancelGateway(name, callId);
    },
    gatewayTools: (name) => gatewayTools(deps, client(name)),
    callGatewayTool: async (name, call, options) => {
      if (nestsDeeper(call.args)) {
        const why = `/arguments: must not nest objects and arrays more than ${MAX_NESTING} levels deep`;
        throw new EndpointRefusal('invalid_request', why);
      }
      const { origin, args } = gatewayPerson(personDeps(deps), client(name), call);
      // The org is looked up once the call is findable by a cancel: it may wait for Slack (auth.teams.list).
      return gatewayCalls.run(name, options, async () => {
        // The org not known (Redis or Slack failing to tell) is no reason not to run: logged, it runs without.
        const withOrg = await withServingOrgOrWithout(origin, deps, { teamId: origin.teamId });
        const run = { server: call.server, tool: call.tool, args, origin: withOrg };
        return callGateway(deps, run, options);
      });
    },
    logger: deps.logger,
  };
}

/** Runs the gateway tool through the hub, as the person `origin` names. */
function callGateway(
  deps: McpEndpointDeps,
  run: Pick<ToolCall, 'server' | 'tool' | 'args' | 'origin'>,
  options: { signal: AbortSignal; onProgress: (message?: string) => void },
): Promise<ToolResult> {
  // Not `durable`: a gateway call is bound to its HTTP request, so its 2026 rounds stay in this replica's
  // memory (a survivor would have nobody to answer).
  return deps.gateway.tools.callTool({
    ...run,
    signal: options.signal,
    onProgress: (update) => options.onProgress(update.message),
  });
}

function personDeps(deps: McpEndpointDeps): GatewayPersonDeps {
  return {
    severalWorkspaces: deps.questions.severalWorkspaces ?? false,
    ...(deps.gatewayAs === undefined ? {} : { gatewayAs: deps.gatewayAs }),
    ...(deps.gatewayTeam === undefined ? {} : { gatewayTeam: deps.gatewayTeam }),
  };
}

/** Asks as POST /api/v1/questions would, then waits for the end; a host that goes away withdraws it. */
async function askHuman(
  deps: McpEndpointDeps,
  client: ApiClient,
  args: Record<string, unknown>,
  { callId, signal }: EndpointCall,
): Promise<HumanAnswer> {
  const { questions } = deps;
  const question = await refusing(async () => {
    const body = validAsk(args);
    const context = openContext({ ...questions, refuseCallback: () => undefined }, client, body);
    checkRequestedSchema(questions, body.requestedSchema);
    return questions.open({ message: body.message, requestedSchema: body.requestedSchema }, context);
  });
  const lifetimeMs = question.deadline - questions.clock.now() + DEADLINE_GRACE_MS;
  await deps.calls.remember(client.name, callId, question.id, lifetimeMs);
  try {
    const ended = await untilEnded(questions, question, signal);
    const outcome = ended?.outcome ?? { action: 'cancel' };
    // The answer as an MCP server gets it (its schema's defaults included), as GET /questions/{id} gives it.
    return ended ? answerAsSent(ended, outcome) : outcome;
  } finally {
    // A later call with the same id (a host without a session starts again at 0) must not find this question.
    await deps.calls.forget(client.name, callId, question.id).catch((err: unknown) => {
      deps.logger.warn({ err, questionId: question.id }, 'MCP endpoint: a finished call was not forgotten');
    });
  }
}

/** API and relay refusals become tool errors the agent can read; anything else is a failure of ours. */
async function refusing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const refusal = error instanceof ApiError ? error : fromRelayError(error);
    throw new EndpointRefusal(refusal.code, refusal.message);
  }
}

/**
 * The question once it has ended: woken by the ended stream, re-read past the deadline in case an end event
 * was missed, and withdrawn when the host stops waiting. Undefined when the record is gone.
 */
async function untilEnded(
  questions: McpEndpointDeps['questions'],
  asked: Question,
  signal: AbortSignal,
): Promise<Question | undefined> {
  for (;;) {
    const subscription = questions.ended.subscribe(asked.id);
    let cancelTimer = (): void => undefined;
    let onAbort = (): void => undefined;
    try {
      const current = await questions.get(asked.id);
      if (current?.state !== 'pending') return current;
      if (signal.aborted) {
        await questions.end(asked.id, { action: 'cancel' }, 'withdrawn');
        continue;
      }
      const recheckMs = Math.max(0, current.deadline - questions.clock.now()) + DEADLINE_GRACE_MS;
      await Promise.race([
        subscription.ended,
        new Promise<void>((resolve) => {
          cancelTimer = questions.clock.schedule(resolve, recheckMs);
          onAbort = resolve;
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      subscription.cancel();
      cancelTimer();
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/** The tools of the gateway servers this client may use; a server that cannot list them is left out. */
async function gatewayTools(deps: McpEndpointDeps, client: ApiClient): Promise<GatewayTool[]> {
  const servers = deps.gateway.servers.filter((s) => client.servers?.includes(s) ?? true);
  const person = listingPerson(personDeps(deps), client);
  const lists = await Promise.all(
    servers.map(async (server) => {
      try {
        const tools = await deps.gateway.tools.listTools(server, person);
        return tools.map((t): GatewayTool => {
          const withAs = withPersonArgument(t.inputSchema);
          const schema =
            withAs === undefined ? { inputSchema: t.inputSchema } : { inputSchema: withAs, takesAs: true };
          return { server, tool: t.name, ...described(t), ...schema };
        });
      } catch (err) {
        deps.logger.warn({ err, server }, 'gateway server offers no tools now');
        return [];
      }
    }),
  );
  return lists.flat();
}

const described = (t: { title?: string; description?: string }) => ({
  ...(t.title === undefined ? {} : { title: t.title }),
  ...(t.description === undefined ? {} : { description: t.description }),
});
