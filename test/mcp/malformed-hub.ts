// A real McpHub whose one server, in memory on a 2025 revision, lists the tools a test gives it
// (test/fixtures/malformed-tools.ts), recording each tools/list and tools/call the hub sends.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpHub } from '../../src/mcp/hub.js';
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
