// Small 2026-07-28 servers (SDK 2.x createMcpHandler, in process) whose legs are scripted, and a hub against
// them (durable over a round store when given one), for the tests of rounds a fixed fixture does not play: a
// round that asks nothing, any requestState, a survivor's retry. Each tool records the legs it was sent.
import { afterEach } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createMcpHandler,
  inputRequired,
  McpServer,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { McpHub } from '../../src/mcp/hub.js';
import type { DurableRounds, McpServerSpec } from '../../src/mcp/types.js';
import type { Outcome } from '../../src/relay/types.js';
import { recordingSink, type Asked } from './support.js';

export const origin = { userId: 'U1', teamId: 'T1', channelId: 'D1' };
export type Reply = CallToolResult | InputRequiredResult;
export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
export const CONFIRM = {
  type: 'object' as const,
  properties: { ok: { type: 'boolean' as const, title: 'OK?' } },
  required: ['ok'],
};
export { inputRequired };

/** One leg of a call as the server got it. */
export interface Leg {
  inputResponses: Record<string, unknown> | undefined;
  /** As it came (no verify hook is configured, so the SDK hands over the raw string). */
  requestState: string | undefined;
}

/** A tool whose n-th leg (0 = the first call) is answered by `script(n, leg)`. */
export type Script = (n: number, leg: Leg) => Reply | Promise<Reply>;

/**
 * A server with these tools; `legs` holds each tool's legs as they came. `legacy`: how it serves 2025 clients
 * (statelessly, the SDK's default, or not at all).
 */
export function scriptedHandler(tools: Record<string, Script>, legacy: 'stateless' | 'reject' = 'stateless') {
  const legs: Record<string, Leg[]> = {};
  const handler = createMcpHandler(
    () => {
      const server = new McpServer(
        { name: 'scripted-2026', version: '1.0.0' },
        { capabilities: { tools: {} } },
      );
      for (const [name, script] of Object.entries(tools)) {
        server.registerTool(name, { description: name }, (ctx): Promise<Reply> => {
          const state: unknown = ctx.mcpReq.requestState();
          const leg: Leg = {
            inputResponses: ctx.mcpReq.inputResponses,
            requestState: typeof state === 'string' ? state : undefined,
          };
          const seen = (legs[name] ??= []);
          seen.push(leg);
          return Promise.resolve(script(seen.length - 1, leg));
        });
      }
      return server;
    },
    { legacy },
  );
  return { handler, legs };
}

const SPEC: McpServerSpec = {
  name: 'modern',
  transport: { kind: 'http', url: 'http://scripted.test/mcp', headers: {} },
  elicitationTimeoutMs: 60_000,
};

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** A hub whose server 'modern' is `handler`; closed after the test. */
export function scriptedHub(
  handler: { fetch: (r: Request) => Promise<Response> },
  answer: (asked: Asked) => Outcome | Promise<Outcome>,
  rounds?: DurableRounds,
) {
  const sink = recordingSink(answer);
  const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
  const hub = new McpHub({
    servers: [SPEC],
    sink,
    ...(rounds === undefined ? {} : { rounds }),
    connect: () => new StreamableHTTPClientTransport(new URL('http://scripted.test/mcp'), { fetch }),
  });
  hubs.push(hub);
  return { hub, sink };
}
