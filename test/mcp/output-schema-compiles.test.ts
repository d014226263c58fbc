// What compiling listed outputSchemas costs, and which schema a result is checked against. Before, each session
// compiled each definition object it met in a validator of its own (ajv inside, keeping all it compiled): the
// listing's session, then every person's session a call ran on, and again after each
// notifications/tools/list_changed (a new listing is new objects), a slow schema holding the event loop each time;
// and ajv answered a schema with a top-level `$id` it had compiled before by that `$id`, so a tool whose schema
// shares another's `$id` (or a schema changed under the same `$id`) was checked against the other schema. Now a
// server's outputSchemas are compiled once per text for all its sessions, each in a validator of its own, at most
// OUTPUT_SCHEMAS_KEPT kept. Real SDK servers: the 1.x low-level Server (which checks none of its results) in memory.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpHub } from '../../src/mcp/hub.js';
import { OUTPUT_SCHEMAS_KEPT, OutputChecks } from '../../src/mcp/output-check.js';
import { McpClientError } from '../../src/mcp/types.js';
import { inMemorySpec, recordingSink } from './support.js';

const origin = { userId: 'U1' };
const hubs: McpHub[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

type Listed = { name: string; outputSchema?: Record<string, unknown> };

/**
 * A server listing `tools()` afresh at each tools/list, whose tool named t answers `results[t]` as its
 * structuredContent; `relist` (listed too) sends notifications/tools/list_changed before it answers.
 */
function serverOf(tools: () => Listed[], results: Record<string, unknown>): Server {
  const server = new Server({ name: 'outputs', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => {
    const listed = [...tools(), { name: 'relist' }];
    return { tools: listed.map((tool) => ({ ...tool, inputSchema: { type: 'object' as const } })) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    if (name === 'relist') await extra.sendNotification({ method: 'notifications/tools/list_changed' });
    const structured = results[name];
    return {
      content: [{ type: 'text' as const, text: `ran ${name}` }],
      ...(structured === undefined ? {} : { structuredContent: structured }),
    };
  });
  return server;
}

function hubOf(tools: () => Listed[], results: Record<string, unknown>) {
  const hub = new McpHub({
    servers: [inMemorySpec('outputs')],
    sink: recordingSink(() => ({ action: 'cancel' })),
    connect: async () => {
      const [client, side] = InMemoryTransport.createLinkedPair();
      // One Server per connection, as a real server keeps one per session.
      await serverOf(tools, results).connect(side);
      return client;
    },
  });
  hubs.push(hub);
  return { hub };
}

/** How a call ended, as a person reads it. */
const ran = (hub: McpHub, tool: string) =>
  hub.callTool({ server: 'outputs', tool, args: {}, origin }).then(
    ({ isError, text }) => ({ isError, text }),
    (error: unknown) => ({
      code: error instanceof McpClientError ? error.code : undefined,
      message: error instanceof Error ? error.message : String(error),
    }),
  );

const MEASURED = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

describe("a server's outputSchemas compiled", () => {
  it('once per text, for the listing and every session, again after list_changed relists it unchanged', async () => {
    const compiles = vi.spyOn(AjvJsonSchemaValidator.prototype, 'getValidator');
    const { hub } = hubOf(() => [{ name: 'measured', outputSchema: { ...MEASURED } }], {
      measured: { n: 7 },
    });
    expect((await hub.listTools('outputs', origin)).map((tool) => tool.name)).toEqual(['measured', 'relist']);
    expect(await ran(hub, 'measured')).toEqual({ isError: false, text: 'ran measured' });
    expect(await ran(hub, 'relist')).toEqual({ isError: false, text: 'ran relist' });
    expect((await hub.listTools('outputs', origin)).map((tool) => tool.name)).toEqual(['measured', 'relist']);
    expect(await ran(hub, 'measured')).toEqual({ isError: false, text: 'ran measured' });
    // Before: the listing's session, the call's session, the listing after list_changed, the call after it.
    expect(compiles).toHaveBeenCalledTimes(1);
  });

  it('at most OUTPUT_SCHEMAS_KEPT at once: past them the least recently used is compiled again', () => {
    const compiles = vi.spyOn(AjvJsonSchemaValidator.prototype, 'getValidator');
    const outputs = new OutputChecks('outputs');
    const definition = (i: number) => ({
      name: `t${i}`,
      inputSchema: { type: 'object' as const },
      outputSchema: { type: 'object' as const, properties: { [`p${i}`]: { type: 'number' } } },
    });
    const first = definition(0);
    expect(outputs.problemOf(first)).toBeUndefined();
    for (let i = 1; i <= OUTPUT_SCHEMAS_KEPT; i += 1)
      expect(outputs.problemOf(definition(i))).toBeUndefined();
    expect(compiles).toHaveBeenCalledTimes(OUTPUT_SCHEMAS_KEPT + 1);
    expect(outputs.problemOf(definition(OUTPUT_SCHEMAS_KEPT)), 'the latest is kept').toBeUndefined();
    expect(compiles).toHaveBeenCalledTimes(OUTPUT_SCHEMAS_KEPT + 1);
    expect(outputs.problemOf(first), 'the first went for the others: compiled again').toBeUndefined();
    expect(compiles).toHaveBeenCalledTimes(OUTPUT_SCHEMAS_KEPT + 2);
  });
});

const ID = 'https://tools.test/result.json';
const NUMBERED = { $id: ID, type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
const NAMED = { $id: ID, type: 'object', properties: { s: { type: 'string' } }, required: ['s'] };

describe('outputSchemas that share a top-level $id', () => {
  it("check each tool's result against its own schema", async () => {
    const tools = () => [
      { name: 'numbered', outputSchema: { ...NUMBERED } },
      { name: 'named', outputSchema: { ...NAMED } },
    ];
    const { hub } = hubOf(tools, { numbered: { n: 7 }, named: { s: 'seven' } });
    expect(await ran(hub, 'numbered')).toEqual({ isError: false, text: 'ran numbered' });
    // Before: checked against NUMBERED, compiled first under the same $id ("must have required property 'n'").
    expect(await ran(hub, 'named')).toEqual({ isError: false, text: 'ran named' });
  });

  it('check a result against the schema as relisted when the server changed it under the same $id', async () => {
    let schema: Record<string, unknown> = NUMBERED;
    const { hub } = hubOf(() => [{ name: 'changing', outputSchema: { ...schema } }], {
      changing: { s: 'seven' },
    });
    expect(await ran(hub, 'changing')).toEqual({
      code: 'tool_failed',
      message:
        "tool changing on outputs returned structuredContent that does not match its outputSchema (data must have required property 'n')",
    });
    schema = NAMED;
    expect(await ran(hub, 'relist')).toEqual({ isError: false, text: 'ran relist' });
    // Before: still checked against NUMBERED, the schema ajv first compiled under that $id.
    expect(await ran(hub, 'changing')).toEqual({ isError: false, text: 'ran changing' });
  });
});
