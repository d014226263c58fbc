// `/mcp run` of a tool whose inputSchema holds a pattern that backtracks catastrophically: the arguments a person
// types are tested against it bounded in time (blocks/patterns.ts), in the form engine's form (a flat schema) and
// in the JSON field's ajv (a nested one), so the person is told the arguments do not match and the replica goes
// on; each such pattern is logged once at warn naming the server, never the arguments. Before, each test of a
// ~30-character argument held the event loop for ~40 s: these tests fail by vitest's timeout. A real MCP server
// (the SDK's) on an in-memory transport, the bot's MCP hub, and the Slack part driven through Bolt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { RUN_JSON_BLOCK } from '../../blocks/index.js';
import { startHubRunPart, type HubRunPart } from './hub-run-part.js';

const BOT_TOKEN = 'xoxb-run-form-patterns';
const REDOS = '^(a+)+$';
const CATASTROPHIC = `${'a'.repeat(30)}!`;
/** Far past a few bounded tests (50 ms each) and the bot's own work, far short of one unbounded test (~40 s). */
const BOUNDED = { timeout: 20_000 };

const TOOLS = [
  {
    name: 'flat',
    inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: REDOS } } },
  },
  {
    name: 'nested',
    inputSchema: {
      type: 'object',
      properties: {
        target: { type: 'object' },
        codes: { type: 'array', items: { type: 'string', pattern: REDOS } },
      },
    },
  },
];

function listingServer(calls: string[]): Server {
  const server = new Server({ name: 'patterns', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    calls.push(request.params.name);
    return { content: [{ type: 'text' as const, text: `ran ${request.params.name}` }] };
  });
  return server;
}

describe('/mcp run of a tool whose pattern backtracks catastrophically', () => {
  let run: HubRunPart;
  const calls: string[] = [];

  beforeAll(async () => {
    run = await startHubRunPart({ botToken: BOT_TOKEN, server: () => listingServer(calls) });
  });
  afterAll(() => run.close());

  /** Opens `tool`'s arguments form as `userId` and submits `value` in its first input; the bot's reply. */
  async function submitted(userId: string, tool: string, value: string) {
    await run.runFormOf(userId, tool);
    const form = run.standin.openViews(userId).at(-1);
    const blocks = form?.view.blocks as { type: string; block_id: string }[] | undefined;
    const input = blocks?.find((b) => b.type === 'input');
    if (!form || !input) throw new Error(`no arguments form open for ${tool}`);
    const reply = await run.part.driver.submitView({
      userId,
      viewId: form.id,
      values: { [input.block_id]: value },
    });
    return { block: input.block_id, json: reply.json };
  }

  it('answers a flat tool’s argument "does not match" under its field, not running it', BOUNDED, async () => {
    const { block, json } = await submitted('U0FLAT', 'flat', CATASTROPHIC);
    expect(json).toEqual({
      response_action: 'errors',
      errors: { [block]: 'Does not match the expected format' },
    });
    expect(calls).toEqual([]);
  });

  it(
    'answers JSON arguments under it "must match pattern", once bounded for many, logging the server',
    BOUNDED,
    async () => {
      const args = JSON.stringify({ codes: Array.from({ length: 40 }, () => CATASTROPHIC) });
      const { block, json } = await submitted('U0NESTED', 'nested', args);
      expect(block).toBe(RUN_JSON_BLOCK);
      expect(JSON.stringify(json)).toContain('/codes/0 must match pattern');
      expect(calls).toEqual([]);
      const lines = run.part.logs.lines.filter((l) => l.pattern === REDOS && l.server === 'fixture');
      expect(lines.map((l) => l.level)).toEqual([40]);
      expect(JSON.stringify(run.part.logs.lines)).not.toContain(CATASTROPHIC);
    },
  );
});
