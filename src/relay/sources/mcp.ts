// The MCP servers as a source of questions and of tools: the hub's elicitation sink asks through the intake,
// and `/mcp` runs tools through the tool runner. (Only src/mcp imports the MCP SDK; this uses its front door.)
import {
  McpClientError,
  type DurableRounds,
  McpHub,
  SignInError,
  type ElicitationSink,
  type McpAuth,
  type McpServerSpec,
  type ServerStatus,
  type ToolCall,
  type RefusedTool,
  type ToolResult,
  type ToolSummary,
} from '../../mcp/index.js';
import type { ServerConfig } from '../../config/index.js';
import type { Logger } from '../../logger.js';
import type { Relay } from '../relay.js';
import type { Origin } from '../types.js';
import type { QuestionIntake } from './intake.js';

/**
 * Connects to every configured server in the background (/mcp servers and /readyz show how far each got);
 * their elicitations become questions through the intake. Stop it with hub.close().
 */
export function startMcpServers(
  servers: readonly ServerConfig[],
  deps: McpSinkDeps & {
    logger: Logger;
    onStatus?: (status: ServerStatus) => void;
    auth?: McpAuth;
    rounds?: DurableRounds;
    /** Awaited around each HTTP exchange with a server (McpHubOptions.turn). */
    turn?: () => Promise<void>;
  },
): McpHub {
  const { logger } = deps;
  const hub = new McpHub({
    ...(deps.auth === undefined ? {} : { auth: deps.auth }),
    servers: servers.map(mcpServerSpec),
    sink: mcpElicitationSink(deps),
    ...(deps.rounds === undefined ? {} : { rounds: deps.rounds }),
    ...(deps.turn === undefined ? {} : { turn: deps.turn }),
    logger: logger.child({ component: 'mcp' }),
    onStatus: (status) => {
      deps.onStatus?.(status);
      if (status.state === 'connected') logger.info({ mcp: status }, 'MCP server connected');
      else logger.warn({ mcp: status }, 'MCP server unavailable');
    },
  });
  hub.start();
  return hub;
}

export interface McpSinkDeps {
  intake: QuestionIntake;
  relay: Pick<Relay, 'completeUrl' | 'settleLinks'>;
  /** -32042 links being waited on: a completion may be one of theirs rather than a question's. */
  completions: { completed(server: string, elicitationId: string): void };
  logger: { warn(obj: object, msg: string): void };
}

/** Each server's `elicitation/create` becomes a question; `notifications/elicitation/complete` ends a URL step. */
export function mcpElicitationSink(deps: McpSinkDeps): ElicitationSink {
  return {
    ask: (request, ctx) =>
      deps.intake.ask(request, {
        server: ctx.server,
        origin: ctx.origin,
        timeoutMs: ctx.timeoutMs,
        signal: ctx.signal,
        ...(ctx.serverInfo ? { serverInfo: ctx.serverInfo } : {}),
        ...(ctx.round ? { round: ctx.round } : {}),
      }),
    complete: (elicitationId, ctx) => {
      deps.completions.completed(ctx.server, elicitationId);
      deps.relay.completeUrl(ctx.server, elicitationId).catch((err: unknown) => {
        deps.logger.warn({ err, server: ctx.server, elicitationId }, 'URL elicitation completion not shown');
      });
    },
    linksSettled: (elicitationIds, ctx) => {
      deps.relay.settleLinks(ctx.server, elicitationIds).catch((err: unknown) => {
        deps.logger.warn({ err, server: ctx.server, elicitationIds }, 'ended URL cards not shown');
      });
    },
  };
}

/** What `/mcp` needs from the MCP side. A failed call resolves with isError: the person must see it. */
export interface ToolRunner {
  serverNames(): string[];
  /** Connection state per server, for `/mcp servers`. */
  status(): ServerStatus[];
  /**
   * The server's tools (cached by the MCP side; today the same list for everyone who asks); rejects when
   * the server cannot be reached.
   */
  listTools(server: string, person: Origin): Promise<ToolSummary[]>;
  /**
   * The tools of the same listing that the MCP schema refuses (their definitions are malformed): left out of
   * listTools and never called, known by name with their problem (McpHub.toolListing).
   */
  refusedTools(server: string, person: Origin): Promise<RefusedTool[]>;
  callTool(input: ToolCall): Promise<ToolResult>;
  /** Opens `person`'s session to `server` ahead of a call they just asked for (McpHub.warm); best effort. */
  warm(server: string, person: Origin): void;
}

/** Expected MCP failures (unknown tool, server down, timeout) are results the person sees, not crashes. */
export function mcpToolRunner(hub: McpHub): ToolRunner {
  return {
    serverNames: () => hub.serverNames(),
    status: () => hub.status(),
    listTools: (server, person) => hub.listTools(server, person),
    refusedTools: async (server, person) => (await hub.toolListing(server, person)).refused,
    warm: (server, person) => hub.warm(server, person),
    callTool: async (input) => {
      try {
        return await hub.callTool(input);
      } catch (error) {
        // A sign-in that did not happen (not connected, timed out, refused): its message says what to do.
        if (error instanceof SignInError) return { isError: true, text: error.message };
        if (!(error instanceof McpClientError)) throw error;
        const restartable = error.code === 'round_expired' ? { restartable: true as const } : {};
        return { isError: true, text: error.message, ...restartable };
      }
    },
  };
}

/** What the hub needs of a configured server (its connection, timeouts, mode, pending cap and round limit). */
export function mcpServerSpec(server: ServerConfig): McpServerSpec {
  return {
    name: server.name,
    transport: server.transport,
    elicitationTimeoutMs: server.elicitationTimeoutMs,
    elicitationMode: server.elicitationMode,
    ...(server.startupTimeoutMs === undefined ? {} : { startupTimeoutMs: server.startupTimeoutMs }),
    ...(server.maxPending === undefined ? {} : { maxPending: server.maxPending }),
    ...(server.maxRounds === undefined ? {} : { maxRounds: server.maxRounds }),
    ...(server.unsolicitedUser === undefined ? {} : { unsolicitedTo: { userId: server.unsolicitedUser } }),
  };
}
