// A server whose tools/list carries tools the MCP schema refuses (a `properties` that is no object, a `required`
// that is no array, a `description` that is no string, an inputSchema that is no object's, a tool without a name)
// beside well-formed ones, over two pages. Before, the SDK refused the whole result and every tool of the server
// was unusable; now the well-formed tools are listed and run, the refused ones are known by name (a nameless one
// by its position) with their problem and never called. A real SDK server on an in-memory transport and the real McpHub.
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpHub } from '../../src/mcp/hub.js';
import { malformedToolsServer } from '../fixtures/malformed-tools.js';
import { inMemorySpec, recordingSink } from './support.js';

const origin = { userId: 'U1' };
const hubs: McpHub[] = [];

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

function makeHub(result?: Record<string, unknown>) {
  const record = { listed: [] as (string | undefined)[], calls: [] as string[] };
  const hub = new McpHub({
    servers: [inMemorySpec('malformed')],
    sink: recordingSink(() => ({ action: 'cancel' })),
    connect: async () => {
      const [client, side] = InMemoryTransport.createLinkedPair();
      await malformedToolsServer(record, result).connect(side);
      return client;
    },
  });
  hubs.push(hub);
  return { hub, record };
}

describe('a tools/list with tools the MCP schema refuses', () => {
  it('lists the well-formed tools of every page; the refused ones are known by name, with their problem', async () => {
    const { hub } = makeHub();
    const tools = await hub.listTools('malformed', origin);
    expect(tools.map((t) => t.name)).toEqual(['ping', 'echo']);
    const { refused } = await hub.toolListing('malformed', origin);
    expect(refused).toEqual([
      {
        name: 'bad_properties',
        problem: {
          path: ['inputSchema', 'properties'],
          message: 'Invalid input: expected record, received string',
        },
        inputSchema: { type: 'object', properties: 'none' },
      },
      {
        name: 'bad_required',
        problem: {
          path: ['inputSchema', 'required'],
          message: 'Invalid input: expected array, received string',
        },
        inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: 'a' },
      },
      {
        name: 'bad_description',
        problem: { path: ['description'], message: 'Invalid input: expected string, received number' },
        inputSchema: { type: 'object' },
      },
      {
        name: 'bad_type',
        problem: { path: ['inputSchema', 'type'], message: 'Invalid input: expected "object"' },
        inputSchema: { type: 'string' },
      },
      // Nameless: known by its position in the listing, the seventh entry across both pages.
      {
        name: '#7',
        problem: { path: ['name'], message: 'Invalid input: expected string, received undefined' },
        inputSchema: { type: 'object' },
      },
    ]);
  });

  it('keeps the listing cached: one walk of the pages serves later listings and calls', async () => {
    const { hub, record } = makeHub();
    await hub.listTools('malformed', origin);
    await hub.toolListing('malformed', origin);
    await hub.callTool({ server: 'malformed', tool: 'echo', args: { a: 1 }, origin });
    // The SDK's own listing (its first page refused), then each page parsed tool by tool; nothing after that.
    expect(record.listed).toEqual([undefined, undefined, 'page-2']);
  });

  it('runs a well-formed tool and refuses a refused one without sending it to the server', async () => {
    const { hub, record } = makeHub();
    const ran = await hub.callTool({ server: 'malformed', tool: 'echo', args: { a: 7 }, origin });
    expect(ran).toMatchObject({ isError: false, text: 'ran echo {"a":7}' });
    const refused = hub.callTool({ server: 'malformed', tool: 'bad_required', args: { a: 'x' }, origin });
    await expect(refused).rejects.toMatchObject({
      code: 'malformed_tool',
      server: 'malformed',
      message: expect.stringContaining('inputSchema.required') as unknown,
    });
    expect(record.calls, 'a tool the MCP schema refuses must not be called').toEqual(['echo']);
  });

  it('still fails a result that is not a list of tools, as the MCP schema does', async () => {
    const { hub } = makeHub({ tools: 'none' });
    await expect(hub.listTools('malformed', origin)).rejects.toMatchObject({
      code: 'tool_failed',
      message: 'tools/list on malformed failed: its result does not follow the MCP schema',
    });
  });
});
