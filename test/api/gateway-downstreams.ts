// The downstream MCP servers of the gateway cancel tests, in process over Streamable HTTP, each with one tool
// `ask` that asks `message` of the person and reports what it saw: the 2025 one elicits (elicitation/create) and
// notes when the bot cancels its tools/call; the 2026-07-28 one answers `input_required` and notes every leg of
// the call it gets (a retry carries the answers).
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer as LegacyServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, fromJsonSchema, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { serveFetchHandler } from '../fixtures/fetch-handler-http.js';
import { serveSessions } from '../fixtures/http-sessions.js';

const CONFIRM = {
  type: 'object' as const,
  properties: { ok: { type: 'boolean' as const, title: 'Go ahead?' } },
  required: ['ok'],
};
const TEN_MINUTES_MS = 10 * 60_000;

export interface Downstream {
  url: string;
  close(): Promise<void>;
}

/** A 2025 server whose `ask` elicits; `cancelled(message)` resolves once the bot cancelled that call. */
export async function legacyDownstream(): Promise<
  Downstream & { cancelled(message: string): Promise<void> }
> {
  const cancels = new Map<string, () => void>();
  const seen = new Map<string, Promise<void>>();
  const cancelled = (message: string): Promise<void> => {
    const known = seen.get(message);
    if (known !== undefined) return known;
    const promise = new Promise<void>((resolve) => cancels.set(message, resolve));
    seen.set(message, promise);
    return promise;
  };
  const make = (): LegacyServer => {
    const server = new LegacyServer({ name: 'legacy-downstream', version: '1.0.0' });
    server.registerTool('ask', { inputSchema: { message: z.string() } }, async ({ message }, extra) => {
      void cancelled(message);
      extra.signal.addEventListener('abort', () => cancels.get(message)?.(), { once: true });
      const params = { mode: 'form' as const, message, requestedSchema: CONFIRM };
      const answer = await extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema, {
        timeout: TEN_MINUTES_MS,
      });
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    });
    return server;
  };
  const served = await serveSessions(0, make);
  return { url: `http://127.0.0.1:${served.port}/mcp`, close: served.close, cancelled };
}

/** A 2026 server whose `ask` asks one input round; `legs(message)` are the tools/calls it got for it. */
export async function modernDownstream(): Promise<Downstream & { legs(message: string): string[] }> {
  const legs = new Map<string, string[]>();
  const handler = createMcpHandler(() => {
    const server = new McpServer(
      { name: 'modern-downstream', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    const inputSchema = fromJsonSchema<{ message: string }>({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
    server.registerTool('ask', { inputSchema }, ({ message }, ctx) => {
      const retry = ctx.mcpReq.inputResponses !== undefined;
      legs.set(message, [...(legs.get(message) ?? []), retry ? 'retry' : 'call']);
      if (retry) return Promise.resolve({ content: [{ type: 'text' as const, text: 'answered' }] });
      const ok = inputRequired.elicit({ message, requestedSchema: CONFIRM });
      return Promise.resolve(inputRequired({ inputRequests: { ok } }));
    });
    return server;
  });
  const http = await serveFetchHandler(handler);
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    legs: (message) => legs.get(message) ?? [],
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
