// The same lenient listing as hub-refused-tools.test.ts, for a 2026-07-28 server: its tools/list goes through
// the SDK's 2026 codec, which refused the whole result for one tool without a name or with an inputSchema that
// is no object's, before any lenient reading; every tool of the server was unusable on a 2026 session. Now the
// well-formed tools are listed and run, the refused ones are known by name (a nameless one by its position) and
// never called. A real SDK 2.x server (createMcpHandler) over Streamable HTTP in process, and the real McpHub.
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpHub } from '../../src/mcp/hub.js';
import { malformedTools2026, NOT_A_LISTING } from '../fixtures/malformed-tools-2026.js';
import { recordingSink } from './support.js';

const origin = { userId: 'U1' };
const URL_2026 = 'http://malformed-2026.test/mcp';
const hubs: McpHub[] = [];

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

function makeHub(result?: Record<string, unknown>) {
  const record = { listed: [] as (string | undefined)[], calls: [] as string[] };
  const handler = malformedTools2026(record, result);
  const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
  const hub = new McpHub({
    servers: [
      {
        name: 'malformed',
        transport: { kind: 'http', url: URL_2026, headers: {} },
        elicitationTimeoutMs: 60_000,
      },
    ],
    sink: recordingSink(() => ({ action: 'cancel' })),
    connect: () => new StreamableHTTPClientTransport(new URL(URL_2026), { fetch }),
  });
  hubs.push(hub);
  return { hub, record };
}

describe('a 2026-07-28 tools/list with tools the MCP schema refuses', () => {
  it('lists the well-formed tools of every page; the refused ones are known by name, a nameless one by its position', async () => {
    const { hub } = makeHub();
    const tools = await hub.listTools('malformed', origin);
    expect(tools.map((t) => t.name)).toEqual(['ping', 'echo']);
    expect(hub.status().find((s) => s.server === 'malformed')?.protocolVersion).toBe('2026-07-28');
    const { refused } = await hub.toolListing('malformed', origin);
    expect(refused).toEqual([
      {
        name: 'bad_type',
        problem: { path: ['inputSchema', 'type'], message: 'Invalid input: expected "object"' },
        inputSchema: { type: 'string' },
      },
      {
        name: '#3',
        problem: { path: ['name'], message: 'Invalid input: expected string, received undefined' },
        inputSchema: { type: 'object' },
      },
      {
        name: 'bad_description',
        problem: { path: ['description'], message: 'Invalid input: expected string, received number' },
        inputSchema: { type: 'object' },
      },
    ]);
  });

  it('runs a well-formed tool and refuses a refused one, a nameless one too, without sending it to the server', async () => {
    const { hub, record } = makeHub();
    const ran = await hub.callTool({ server: 'malformed', tool: 'echo', args: { a: 7 }, origin });
    expect(ran).toMatchObject({ isError: false, text: 'ran echo {"a":7}' });
    for (const tool of ['bad_type', '#3']) {
      const refused = hub.callTool({ server: 'malformed', tool, args: {}, origin });
      await expect(refused).rejects.toMatchObject({ code: 'malformed_tool', server: 'malformed' });
    }
    expect(record.calls, 'a tool the MCP schema refuses must not be called').toEqual(['echo']);
  });

  it('keeps the listing cached: one walk of the pages serves later listings and calls', async () => {
    const { hub, record } = makeHub();
    await hub.listTools('malformed', origin);
    await hub.toolListing('malformed', origin);
    await hub.callTool({ server: 'malformed', tool: 'ping', args: {}, origin });
    // The SDK's own listing (its first page refused), then each page read raw; nothing after that.
    expect(record.listed).toEqual([undefined, undefined, 'page-2']);
  });

  it('still fails a result that is not a list of tools, as the MCP schema does', async () => {
    const { hub } = makeHub(NOT_A_LISTING);
    await expect(hub.listTools('malformed', origin)).rejects.toMatchObject({
      code: 'tool_failed',
      message: 'tools/list on malformed failed: its result does not follow the MCP schema',
    });
  });

  it('still fails a page the 2026 schema refuses apart from its tools (a cursor that is no string)', async () => {
    const { hub } = makeHub({
      tools: [{ name: 'bad_type', inputSchema: { type: 'string' } }],
      nextCursor: 5,
    });
    await expect(hub.listTools('malformed', origin)).rejects.toMatchObject({
      code: 'tool_failed',
      message: 'tools/list on malformed failed: its result does not follow the MCP schema',
    });
  });
});
