// A real McpHub over one test server: in memory on a 2025 revision listing the tools a test gives it
// (test/fixtures/malformed-tools.ts, recording each tools/list and tools/call the hub sends), or a 2026 server's
// in-process fetch handler reached over Streamable HTTP.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpHub } from '../../src/mcp/hub.js';
import type { McpServerSpec } from '../../src/mcp/types.js';
import { malformedToolsServer } from '../fixtures/malformed-tools.js';
import { inMemorySpec, recordingSink } from './support.js';

/** The hub (added to `hubs`, which the test closes) and what its server was sent. */
export function malformedToolsHub(server: string, tools: Record<string, unknown>[], hubs: McpHub[]) {
  const record = { listed: [] as (string | undefined)[], calls: [] as string[] };
  const hub = new McpHub({
    servers: [inMemorySpec(server)],
    sink: recordingSink(() => ({ action: 'cancel' })),
    connect: async () => {
      const [client, side] = InMemoryTransport.createLinkedPair();
      await malformedToolsServer(record, { tools }).connect(side);
      return client;
    },
  });
  hubs.push(hub);
  return { hub, record };
}

/** A hub (added to `hubs`) whose server `server` is `handler`, reached at `url` over Streamable HTTP in process. */
export function handlerHub(
  server: string,
  url: string,
  handler: { fetch: (request: Request) => Promise<Response> },
  hubs: McpHub[],
): McpHub {
  const fetch = (to: string | URL, init?: RequestInit) => handler.fetch(new Request(to, init));
  const spec: McpServerSpec = {
    name: server,
    transport: { kind: 'http', url, headers: {} },
    elicitationTimeoutMs: 60_000,
  };
  const hub = new McpHub({
    servers: [spec],
    sink: recordingSink(() => ({ action: 'cancel' })),
    connect: () => new StreamableHTTPClientTransport(new URL(url), { fetch }),
  });
  hubs.push(hub);
  return hub;
}
