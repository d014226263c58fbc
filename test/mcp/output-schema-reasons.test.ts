// A 2025 tool's outputSchema, as a person meets it when something is wrong with it. The SDK failed an outputSchema
// it cannot compile (before sending the call) and structuredContent that breaks it (after the server ran the tool)
// alike as a local JSON-RPC -32602, which the hub worded "tool m on s failed (JSON-RPC -32602)": the words of a
// server refusing the arguments, with no reason. Now a schema that cannot be compiled refuses the tool, nothing
// sent, naming the problem; a result that breaks it fails the call saying what does not match. Real SDK servers
// (the low-level Server, which checks none of its results) in memory, over stdio and over Streamable HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpHub } from '../../src/mcp/hub.js';
import { McpClientError, type McpServerSpec } from '../../src/mcp/types.js';
import { malformedToolsServer } from '../fixtures/malformed-tools.js';
import { serveSessions, type ServedHttp } from '../fixtures/http-sessions.js';
import { httpSpec } from './peers.js';
import { inMemorySpec, recordingSink, repoRoot } from './support.js';

const origin = { userId: 'U1' };
const hubs: McpHub[] = [];
const served: ServedHttp[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  await Promise.all(served.splice(0).map((http) => http.close()));
});

function makeHub(spec: McpServerSpec, connect?: () => Promise<InMemoryTransport>): McpHub {
  const sink = recordingSink(() => ({ action: 'cancel' }));
  const hub = new McpHub({ servers: [spec], sink, ...(connect === undefined ? {} : { connect }) });
  hubs.push(hub);
  return hub;
}

/** How a call ends, as a person reads it: its text, or its error's code and message. */
interface Ended {
  text?: string;
  code?: unknown;
  message?: string;
}

const outcome = (hub: McpHub, server: string, tool = 'measured'): Promise<Ended> =>
  hub.callTool({ server, tool, args: {}, origin }).then(
    (result) => ({ text: result.text }),
    (error: unknown) => ({
      code: error instanceof McpClientError ? error.code : undefined,
      message: error instanceof Error ? error.message : String(error),
    }),
  );

describe('an outputSchema the SDK cannot compile', () => {
  const uncompilable: [string, Record<string, unknown>][] = [
    ['a type no JSON Schema has', { type: 'object', properties: { n: { type: 'nonsense' } } }],
    ['a $ref to nothing', { type: 'object', properties: { n: { $ref: '#/$defs/missing' } } }],
    [
      'a pattern that is no regular expression',
      { type: 'object', properties: { n: { type: 'string', pattern: '(' } } },
    ],
  ];
  it.each(uncompilable)(
    'with %s refuses the tool, naming its outputSchema, and sends nothing',
    async (_what, schema) => {
      const record = { listed: [] as (string | undefined)[], calls: [] as string[] };
      const tools = [{ name: 'measured', inputSchema: { type: 'object' }, outputSchema: schema }];
      const hub = makeHub(inMemorySpec('measured'), async () => {
        const [client, side] = InMemoryTransport.createLinkedPair();
        await malformedToolsServer(record, { tools }).connect(side);
        return client;
      });
      const ended = await outcome(hub, 'measured');
      expect(ended).toMatchObject({ code: 'malformed_tool' });
      expect(ended.message).toMatch(
        /^measured on measured was not run: its definition is malformed \(outputSchema: .+\)$/,
      );
      expect(record.calls).toEqual([]);
    },
  );
});

const MEASURED = {
  name: 'measured',
  inputSchema: { type: 'object' as const },
  outputSchema: { type: 'object' as const, properties: { n: { type: 'number' } }, required: ['n'] },
};
const WRONG = { content: [{ type: 'text' as const, text: 'seven' }], structuredContent: { n: 'seven' } };
const MISMATCH = {
  code: 'tool_failed',
  message:
    'tool measured on violating returned structuredContent that does not match its outputSchema (data/n must be number)',
};

/** The server's code for a stdio child: its one tool answers `WRONG` (the SDK 1.x low-level Server). */
const STDIO_SERVER = `
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 'violating', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [${JSON.stringify(MEASURED)}] }));
server.setRequestHandler(CallToolRequestSchema, () => (${JSON.stringify(WRONG)}));
await server.connect(new StdioServerTransport());
`;

/** The same server for Streamable HTTP: an McpServer whose low-level server answers for itself. */
function violatingServer(): McpServer {
  const mcp = new McpServer({ name: 'violating', version: '1.0.0' });
  mcp.server.registerCapabilities({ tools: {} });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [MEASURED] }));
  mcp.server.setRequestHandler(CallToolRequestSchema, () => WRONG);
  return mcp;
}

describe('structuredContent that breaks the outputSchema', () => {
  it('fails the call over stdio, saying what does not match', async () => {
    const hub = makeHub({
      name: 'violating',
      transport: {
        kind: 'stdio',
        command: process.execPath,
        args: ['--input-type=module', '-e', STDIO_SERVER],
        env: {},
        cwd: repoRoot,
      },
      elicitationTimeoutMs: 60_000,
    });
    expect(await outcome(hub, 'violating')).toEqual(MISMATCH);
  });

  it('fails the call over Streamable HTTP, saying what does not match', async () => {
    const http = await serveSessions(0, violatingServer);
    served.push(http);
    const hub = makeHub(httpSpec('violating', `http://127.0.0.1:${http.port}/mcp`));
    expect(await outcome(hub, 'violating')).toEqual(MISMATCH);
  });
});
