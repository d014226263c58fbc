// What ajv says while compiling a server's schemas goes to the bot's logger, never to stdout/stderr. Before, an
// outputSchema naming a format ajv does not know (`"format": "my-thing…"`, any length) had ajv console.warn
// `unknown format "…" ignored in schema at path …` twice per compile: from the hub's own check of a tool's
// results (output-check.ts) and from the SDK's Client, which compiles every tool of the listing it holds when a
// call names no listed tool. Now ajv's note is logged once per server at warn, cut, with the server and the tool
// (at most NOTES_LOGGED notes per server); the schema still compiles with the format ignored, and results are
// still checked.
// Real SDK servers: the 1.x low-level Server (which checks none of its results) in memory.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpHub } from '../../src/mcp/hub.js';
import { NOTES_LOGGED, SchemaNotes, schemaValidator } from '../../src/mcp/schema-validators.js';
import { McpClientError, type McpLogger } from '../../src/mcp/types.js';
import { inMemorySpec, recordingSink } from './support.js';

const origin = { userId: 'U1' };
const hubs: McpHub[] = [];

/** Every way a line could reach the terminal, each kept from writing. */
let printed: { mock: { calls: unknown[][] } }[] = [];
beforeEach(() => {
  const silent = () => true;
  printed = [
    vi.spyOn(process.stderr, 'write').mockImplementation(silent),
    vi.spyOn(process.stdout, 'write').mockImplementation(silent),
    vi.spyOn(console, 'warn').mockImplementation(() => undefined),
    vi.spyOn(console, 'error').mockImplementation(() => undefined),
    vi.spyOn(console, 'log').mockImplementation(() => undefined),
  ];
});
afterEach(async () => {
  const calls = printed.flatMap((spy) => spy.mock.calls);
  vi.restoreAllMocks();
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  expect(calls, 'written to stdout/stderr').toEqual([]);
});

function recordingLogger(): McpLogger & { warned: { obj: object; msg: string }[] } {
  const warned: { obj: object; msg: string }[] = [];
  return { warned, debug: () => undefined, warn: (obj, msg) => void warned.push({ obj, msg }) };
}

/** A format name no validator knows, longer than a log line keeps. */
const FORMAT = `my-thing-${'x'.repeat(300)}`;
const WHEN = { type: 'object', properties: { when: { type: 'string', format: FORMAT } }, required: ['when'] };

/** A server whose tools `dated` and `broken` (whose result breaks it) share an outputSchema naming FORMAT. */
function serverOf(): Server {
  const server = new Server({ name: 'outputs', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: ['dated', 'broken'].map((name) => ({
      name,
      inputSchema: { type: 'object' as const },
      outputSchema: { ...WHEN },
    })),
  }));
  const results: Record<string, unknown> = { dated: { when: 'whenever' }, broken: { when: 7 } };
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const structured = results[request.params.name];
    return {
      content: [{ type: 'text' as const, text: `ran ${request.params.name}` }],
      ...(structured === undefined ? {} : { structuredContent: structured }),
    };
  });
  return server;
}

function hubOf(names: string[], logger: McpLogger): McpHub {
  const hub = new McpHub({
    servers: names.map((name) => inMemorySpec(name)),
    sink: recordingSink(() => ({ action: 'cancel' })),
    logger,
    connect: async () => {
      const [client, side] = InMemoryTransport.createLinkedPair();
      await serverOf().connect(side);
      return client;
    },
  });
  hubs.push(hub);
  return hub;
}

const ran = (hub: McpHub, server: string, tool: string) =>
  hub.callTool({ server, tool, args: {}, origin }).then(
    ({ isError, text }) => ({ isError, text }),
    (error: unknown) => ({
      code: error instanceof McpClientError ? error.code : undefined,
      message: error instanceof Error ? error.message : String(error),
    }),
  );

const NOTE = "JSON Schema compiler note on a server's schema";
/** ajv's note on FORMAT, cut to 200 characters. */
const noted = (server: string, tool: string) => ({
  obj: { server, tool, note: `unknown format "${FORMAT}`.slice(0, 199) + '…' },
  msg: NOTE,
});

describe('an outputSchema naming an unknown format', () => {
  it('is logged once per server through the logger, compiles, and its results are still checked', async () => {
    const logger = recordingLogger();
    const hub = hubOf(['outputs', 'others'], logger);
    expect((await hub.listTools('outputs', origin)).map((tool) => tool.name)).toEqual(['dated', 'broken']);
    expect(await ran(hub, 'outputs', 'dated')).toEqual({ isError: false, text: 'ran dated' });
    expect(await ran(hub, 'outputs', 'broken')).toEqual({
      code: 'tool_failed',
      message:
        'tool broken on outputs returned structuredContent that does not match its outputSchema (data/when must be string)',
    });
    expect(await ran(hub, 'others', 'dated')).toEqual({ isError: false, text: 'ran dated' });
    expect(logger.warned).toEqual([noted('outputs', 'dated'), noted('others', 'dated')]);
  });

  it("is not printed by the SDK's Client compiling the listing it holds for a call naming no listed tool", async () => {
    const logger = recordingLogger();
    const hub = hubOf(['outputs'], logger);
    // Unlisted by the hub yet: the call's own session lists, and its Client keeps that listing.
    expect(await ran(hub, 'outputs', 'dated')).toEqual({ isError: false, text: 'ran dated' });
    // Before: the Client compiled both tools' outputSchemas with its own ajv, which printed.
    expect(await ran(hub, 'outputs', 'unlisted')).toEqual({ isError: false, text: 'ran unlisted' });
    expect(logger.warned).toEqual([noted('outputs', 'dated')]);
  });
});

describe("a server's notes from ajv", () => {
  it('are logged for at most NOTES_LOGGED formats, then one line says no more are', () => {
    const logger = recordingLogger();
    const notes = new SchemaNotes('outputs', logger);
    const formats = Array.from({ length: NOTES_LOGGED + 20 }, (_, i) => `f${i}`);
    const properties = Object.fromEntries(formats.map((format) => [format, { type: 'string', format }]));
    for (const tool of ['wide', 'again'])
      schemaValidator({ type: 'object', properties }, notes.loggerFor(tool));
    expect(logger.warned).toHaveLength(NOTES_LOGGED + 1);
    expect(logger.warned[0]).toEqual({
      obj: {
        server: 'outputs',
        tool: 'wide',
        note: 'unknown format "f0" ignored in schema at path "#/properties/f0"',
      },
      msg: NOTE,
    });
    expect(logger.warned.at(-1)).toEqual({
      obj: { server: 'outputs' },
      msg: `more than ${NOTES_LOGGED} JSON Schema notes: no more logged`,
    });
  });

  it("are logged by their first words only: a failed compile's code stays out", () => {
    const logger = recordingLogger();
    const ajv = new SchemaNotes('outputs', logger).loggerFor('t');
    ajv.error('Error compiling schema, function code:', 'const schema = "the server\'s text"');
    const long = `$ref: keywords ignored in schema at path "#/${'p'.repeat(300)}"`;
    ajv.warn(long);
    expect(logger.warned).toEqual([
      {
        obj: { server: 'outputs', tool: 't', note: 'Error compiling schema, function code:' },
        msg: NOTE,
      },
      {
        obj: {
          server: 'outputs',
          tool: 't',
          note: `${long.slice(0, 199)}…`,
        },
        msg: NOTE,
      },
    ]);
  });
});
