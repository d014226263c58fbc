// `/mcp run <server> <tool>` of a tool whose inputSchema is malformed (a property's `type` that is no JSON Schema
// type, a `minimum` that is a string, an `enum` that is not an array, a schema-valued keyword that is not a schema,
// a `required` name that `additionalProperties: false` forbids):
// the person is told in the arguments modal that the tool's input schema is malformed, naming the property and the
// problem, and nothing is sent to the server. Before, the modal fell back to a JSON field whose arguments went to
// the server unchecked (ajv could not compile the schema), and a tool without properties ran at once. A real MCP
// server (the SDK's) on an in-memory transport, the bot's MCP hub, and the Slack part driven through Bolt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { RUN_JSON_BLOCK } from '../../blocks/index.js';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { startHubRunPart, type HubRunPart } from './hub-run-part.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

const BOT_TOKEN = 'xoxb-run-form-malformed';

/** Tools as the server lists them, raw JSON: the SDK's own listing checks only `type`, `properties`, `required`. */
const TOOLS = [
  { name: 'echo', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } },
  { name: 'bad_type', inputSchema: { type: 'object', properties: { kind: { type: 'text' } } } },
  {
    name: 'bad_minimum',
    inputSchema: { type: 'object', properties: { count: { type: 'integer', minimum: '1' } } },
  },
  {
    name: 'bad_enum',
    inputSchema: { type: 'object', properties: { color: { type: 'string', enum: 'red' } } },
  },
  // No properties (it would run at once, with no form), but a keyword that must be a schema is a string.
  { name: 'bad_root', inputSchema: { type: 'object', additionalProperties: 'none' } },
  // Past the meta-schema: a `required` name that `additionalProperties: false` forbids (no answer passes).
  {
    name: 'stuck_required',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['ticket'],
      additionalProperties: false,
    },
  },
  // Both kept working: a pattern in the server's own dialect (Python's `(?i)`, which the bot cannot read: left
  // to the server), a required name another schema defines.
  {
    name: 'loose',
    inputSchema: {
      type: 'object',
      properties: { code: { type: 'string', pattern: '(?i)^[a-z_]+$' } },
      allOf: [{ properties: { ticket: { type: 'integer' } } }],
      required: ['code', 'ticket'],
    },
  },
];

/** The SDK's low-level server listing TOOLS; every tools/call it gets is recorded by tool name. */
function listingServer(calls: string[]): Server {
  const server = new Server({ name: 'malformed', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    calls.push(request.params.name);
    const text = `ran ${request.params.name} ${JSON.stringify(request.params.arguments ?? {})}`;
    return { content: [{ type: 'text' as const, text }] };
  });
  return server;
}

describe('/mcp run of a tool whose inputSchema is malformed', () => {
  let run: HubRunPart;
  const calls: string[] = [];

  beforeAll(async () => {
    run = await startHubRunPart({ botToken: BOT_TOKEN, server: () => listingServer(calls) });
  });
  afterAll(() => run.close());

  it.each([
    ['bad_type', 'U0BADTYPE', 'property "kind": "type" must be one of "array", "boolean", "integer", "null"'],
    ['bad_minimum', 'U0BADMIN', 'property "count": "minimum" must be number'],
    ['bad_enum', 'U0BADENUM', 'property "color": "enum" must be array'],
    ['bad_root', 'U0BADROOT', '"additionalProperties" must be object,boolean'],
    ['stuck_required', 'U0STUCK', 'required names "ticket", which the schema does not allow'],
  ])(
    '%s: the modal says the input schema is malformed, naming the problem',
    async (tool, userId, problem) => {
      const view = await run.runFormOf(userId, tool);
      expect(view.text, 'the person must be told the tool cannot run: its schema is malformed').toContain(
        `\`${tool}\` on \`fixture\` cannot run: its input schema is malformed`,
      );
      expect(view.text, 'the refusal must name the property and what is wrong with it').toContain(problem);
      expect(view.types, 'no arguments form may open for a malformed schema').not.toContain('input');
    },
  );

  it('sends nothing to the server for a malformed tool, and a well-formed tool still opens its form and runs', async () => {
    const view = await run.runFormOf('U0GOOD', 'echo');
    expect(view.types).toContain('input');
    await run.submitFirstInput('U0GOOD', 'echo', '7');
    // The malformed tools were asked for first (the tests above): none of them reached the server.
    expect(calls, 'a tool with a malformed inputSchema must not be called').toEqual(['echo']);
  });

  it('opens the form of a tool whose pattern is in its server’s dialect and whose required name allOf defines, and runs it', async () => {
    const view = await run.runFormOf('U0LOOSE', 'loose');
    expect(view.text).not.toContain('malformed');
    const form = run.standin.openViews('U0LOOSE').at(-1);
    if (!form) throw new Error('no arguments form open for loose');
    const values = { [RUN_JSON_BLOCK]: '{"code": "a_b", "ticket": 7}' };
    await run.part.driver.submitView({ userId: 'U0LOOSE', viewId: form.id, values });
    await run.standin.waitForCall(
      'chat.postMessage',
      (call) => call.ok && JSON.stringify(call.args).includes('ran loose'),
      10_000,
    );
    expect(calls).toEqual(['echo', 'loose']);
  });
});

// A form whose schema did not fit its private_metadata is checked against the tool as listed at its submission:
// a tool whose inputSchema became malformed since the form opened is refused there, in the form, and not run.
describe('the arguments form of a tool whose inputSchema became malformed while it was open', () => {
  const long = 'Why the note is needed. '.repeat(150);
  const schema = (note: object) => ({
    type: 'object',
    properties: { note: { type: 'string', description: long, ...note } },
  });
  const listed = { schema: schema({}) };
  const calls: string[] = [];
  const tools: ToolRunner = {
    serverNames: () => ['fixture'],
    status: () => [],
    listTools: () =>
      Promise.resolve([
        { name: 'annotate', inputSchema: listed.schema },
        { name: 'ping', inputSchema: { type: 'object' } },
      ]),
    refusedTools: () => Promise.resolve([]),
    callTool: (call) => {
      calls.push(call.tool);
      return Promise.resolve({ isError: false, text: `ran ${call.tool}` });
    },
    warm: () => undefined,
  };
  let standin: SlackStandin;
  let part: RunningSlackPart;

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    part = await startSlackPart({ standin, botToken: BOT_TOKEN, tools });
  });
  afterAll(async () => {
    await part.close();
    await standin.close();
  });

  it('is refused in the form, naming the property, and the tool is not run', async () => {
    await part.driver.slashCommand({ userId: 'U0CHANGED', command: '/mcp', text: 'run fixture annotate' });
    await standin.waitForCall(
      'views.update',
      (call) => call.ok && JSON.stringify(call.args.view).includes('"input"'),
      10_000,
    );
    const form = standin.openViews('U0CHANGED').at(-1);
    const input = (form?.view.blocks as { type: string; block_id: string }[] | undefined)?.find(
      (b) => b.type === 'input',
    );
    if (!form || !input) throw new Error('no arguments form open for annotate');
    expect(form.view.private_metadata, 'the schema must not ride in the form for this test').not.toContain(
      'properties',
    );
    listed.schema = schema({ maxLength: 'ten' });
    const submitted = await part.driver.submitView({
      userId: 'U0CHANGED',
      viewId: form.id,
      values: { [input.block_id]: 'a note' },
    });
    const ack = submitted.json as {
      response_action?: string;
      view?: { blocks: { text?: { text: string } }[] };
    };
    expect(ack.response_action).toBe('update');
    const text = (ack.view?.blocks ?? []).map((b) => b.text?.text ?? '').join('\n');
    expect(text).toContain('`annotate` on `fixture` cannot run: its input schema is malformed');
    expect(text).toContain('property "note": "maxLength" must be integer');
    // A well-formed tool run afterwards reaches the server; the refused one never did.
    await part.driver.slashCommand({ userId: 'U0CHANGED', command: '/mcp', text: 'run fixture ping' });
    await standin.waitForCall(
      'chat.postMessage',
      (call) => call.ok && JSON.stringify(call.args).includes('ran ping'),
      10_000,
    );
    expect(calls, 'a form submitted for a malformed inputSchema must not run its tool').toEqual(['ping']);
  });
});
