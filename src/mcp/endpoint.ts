// The bot as an MCP server, at POST /mcp (Streamable HTTP, stateless: one SDK server per request), for agent
// hosts with nobody at their keyboard: the tool `ask_human` asks people in Slack and answers with their
// outcome, and servers marked `gateway: true` offer their tools as `<server>__<tool>`, whose elicitations go
// to Slack too. Who calls is the API client its bearer token names; what a client may do is the ports' say.
// While a person takes their time, progress notifications keep the host's request timeout from firing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { readBody, refuseBody } from './endpoint-body.js';
import { HostCalls, callIdOf, cancelledCalls, hostSession, namedCall } from './host-calls.js';
import type { ToolResult } from './types.js';
import { wholeResult } from './results.js';

/** How often a long wait sends a progress notification, in ms (hosts commonly time out after 60 s). */
export const KEEPALIVE_MS = 15_000;

/** The separator between a gateway server's name and its tool's: `github__create_issue`. */
export const GATEWAY_SEPARATOR = '__';

export const ASK_HUMAN = 'ask_human';

/** A person's answer, exactly as an MCP server would receive it. */
export interface HumanAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/** One tools/call of a host: its id within the host's session (host-calls.ts) and the signal that fires when the host stops waiting. */
export interface EndpointCall {
  callId: string;
  signal: AbortSignal;
}

/** A gateway tool as the agent host sees it. */
export interface GatewayTool {
  server: string;
  tool: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  /** The endpoint added its own `as` argument (whom the call runs for) to the schema: the call carries it. */
  takesAs?: boolean;
}

/** A refusal the caller can act on (a bad argument, a target it may not use): shown as a tool error. */
export class EndpointRefusal extends Error {
  override readonly name = 'EndpointRefusal';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface EndpointPorts {
  /** The API client a bearer token belongs to (compared in constant time), or undefined. */
  authenticate(authorization: string | undefined): string | undefined;
  /** The JSON Schema of ask_human's arguments (the API's question shape, one source of truth). */
  askHumanSchema: Tool['inputSchema'];
  /**
   * Asks and waits for the outcome; rejects with EndpointRefusal for input the API would refuse. `call.callId`
   * names the tools/call within its host's session, by which a cancel reaching another replica finds the question.
   */
  askHuman(client: string, args: Record<string, unknown>, call: EndpointCall): Promise<HumanAnswer>;
  /**
   * A `notifications/cancelled` for a call not running on this replica: withdraws an ask_human call's question,
   * or has the replica running a gateway call of that id end it (`cancel` there).
   */
  cancelElsewhere(client: string, callId: string): Promise<void>;
  /** The tools of the gateway servers this client may use. */
  gatewayTools(client: string): Promise<GatewayTool[]>;
  /**
   * Runs a gateway tool; its elicitations go to the client's target in Slack. `cancel` ends the call as the
   * host's cancel reaching this replica does, for a cancel that reached another one.
   */
  callGatewayTool(
    client: string,
    call: { server: string; tool: string; args: Record<string, unknown>; takesAs?: boolean },
    options: EndpointCall & { onProgress: (message?: string) => void; cancel: () => void },
  ): Promise<ToolResult>;
  logger: { warn(obj: object, msg: string): void };
  /** How often a long wait sends progress, in ms; default KEEPALIVE_MS. */
  keepaliveMs?: number;
}

/** The schema of ask_human's structuredContent. */
const ANSWER_SCHEMA = {
  type: 'object' as const,
  properties: {
    action: { type: 'string', enum: ['accept', 'decline', 'cancel'] },
    content: { type: 'object', description: 'The answer, typed by requestedSchema (accept only).' },
  },
  required: ['action'],
};

/**
 * The request listener for POST /mcp; other methods get 405 (a stateless server keeps no streams). A host's
 * `notifications/cancelled` comes in a POST of its own (alone or batched), on any replica: when
 * the call it names runs on this replica, that call's request is closed (its handler aborted); otherwise the
 * question an ask_human call of that id waits on is withdrawn, and the replica running it answers the host with
 * `cancel`, or the replica running a gateway call of that id closes its request as if the cancel had come there.
 * Calls are named within the host's session (host-calls.ts), so one host's cancel never reaches another host's call.
 */
export function mcpEndpoint(ports: EndpointPorts): (req: IncomingMessage, res: ServerResponse) => void {
  const inFlight = new HostCalls<StreamableHTTPServerTransport>();
  return (req, res) => {
    const client = ports.authenticate(req.headers.authorization);
    if (client === undefined) return unauthorized(res);
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    serveOne({ ports, inFlight }, client, req, res).catch((err: unknown) => {
      ports.logger.warn({ err }, 'MCP endpoint request failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
}

function unauthorized(res: ServerResponse): void {
  res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
  res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'A valid bearer token is required.' } }));
}

interface Endpoint {
  ports: EndpointPorts;
  inFlight: HostCalls<StreamableHTTPServerTransport>;
}

async function serveOne(
  { ports, inFlight }: Endpoint,
  client: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readBody(req);
  if (!('parsed' in body)) return refuseBody(res, body);
  const session = hostSession(req, res, body.parsed);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  const server = endpointServer(ports, client, session, () => void transport.close());
  const called = namedCall(body.parsed, session);
  if (called !== undefined) inFlight.add(client, called, transport);
  for (const cancelled of cancelledCalls(body.parsed, session))
    cancelCall({ ports, inFlight }, client, cancelled);
  res.on('close', () => {
    if (called !== undefined) inFlight.remove(client, called, transport);
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body.parsed);
}

function cancelCall({ ports, inFlight }: Endpoint, client: string, callId: string): void {
  const local = inFlight.find(client, callId);
  if (local === 'ambiguous') {
    ports.logger.warn(
      { client, callId },
      'MCP endpoint: a cancel names several calls in flight; none cancelled',
    );
    return;
  }
  if (local !== undefined) return void local.close();
  ports.cancelElsewhere(client, callId).catch((err: unknown) => {
    ports.logger.warn({ err, callId }, 'MCP endpoint could not withdraw a cancelled call');
  });
}

/** `cancel` closes this request's transport: what the host's cancel does to a call running here. */
function endpointServer(
  ports: EndpointPorts,
  client: string,
  session: string | undefined,
  cancel: () => void,
): Server {
  const server = new Server(
    { name: 'elicit-relay', version: '0.1.0', title: 'elicit-relay: ask people in Slack' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [askHumanTool(ports), ...(await ports.gatewayTools(client)).map(gatewayToolOf)],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const progress = keepalive(
      request.params._meta?.progressToken,
      ports.keepaliveMs ?? KEEPALIVE_MS,
      (params) => extra.sendNotification({ method: 'notifications/progress', params }),
    );
    try {
      const call = { callId: callIdOf(session, extra.requestId), signal: extra.signal };
      if (name === ASK_HUMAN) return answerResult(await ports.askHuman(client, args, call));
      const target = await gatewayTarget(ports, client, name);
      const options = { ...call, onProgress: progress.note, cancel };
      return wholeResult(await ports.callGatewayTool(client, { ...target, args }, options));
    } catch (error) {
      if (error instanceof EndpointRefusal) return refusalResult(error);
      throw error;
    } finally {
      progress.stop();
    }
  });
  return server;
}

function askHumanTool(ports: EndpointPorts): Tool {
  return {
    name: ASK_HUMAN,
    title: 'Ask a person in Slack',
    description:
      'Asks people in Slack with a form built from requestedSchema and waits for their answer: accept with ' +
      'content, decline, or cancel (closed, timed out or withdrawn). `to` names a person {"user":"U…"}, ' +
      'people {"users":[…]}, a user group {"usergroup":"S…"} or a channel {"channel":"C…"}.',
    inputSchema: ports.askHumanSchema,
    outputSchema: ANSWER_SCHEMA,
    annotations: { readOnlyHint: false, openWorldHint: true },
  };
}

function gatewayToolOf(tool: GatewayTool): Tool {
  const schema = tool.inputSchema;
  const inputSchema: Tool['inputSchema'] =
    typeof schema === 'object' && schema !== null && 'type' in schema && schema.type === 'object'
      ? { ...schema, type: 'object' }
      : { type: 'object' };
  return {
    name: `${tool.server}${GATEWAY_SEPARATOR}${tool.tool}`,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema,
  };
}

/** The gateway server and tool a name stands for; an unknown name is the caller's mistake (-32602). */
async function gatewayTarget(
  ports: EndpointPorts,
  client: string,
  name: string,
): Promise<{ server: string; tool: string; takesAs?: boolean }> {
  const found = (await ports.gatewayTools(client)).find(
    (t) => `${t.server}${GATEWAY_SEPARATOR}${t.tool}` === name,
  );
  if (!found) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  return { server: found.server, tool: found.tool, ...(found.takesAs === true ? { takesAs: true } : {}) };
}

function answerResult(answer: HumanAnswer): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: { ...answer } };
}

function refusalResult(refusal: EndpointRefusal): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${refusal.code}: ${refusal.message}` }] };
}

type ProgressParams = { progressToken: string | number; progress: number; message?: string };

/**
 * Progress for one call: every KEEPALIVE_MS while it waits, and whenever the gateway's server reports some.
 * Without a progressToken the host asked for none, and none is sent.
 */
function keepalive(
  token: string | number | undefined,
  everyMs: number,
  send: (params: ProgressParams) => Promise<void>,
): { note: (message?: string) => void; stop: () => void } {
  if (token === undefined) return { note: () => undefined, stop: () => undefined };
  let progress = 0;
  const note = (message?: string): void => {
    progress += 1;
    // Best effort: a host that went away cannot be told, and its request ends with the connection anyway.
    send({ progressToken: token, progress, ...(message ? { message } : {}) }).catch(() => undefined);
  };
  const timer = setInterval(() => note('waiting for a person in Slack'), everyMs);
  return { note, stop: () => clearInterval(timer) };
}
