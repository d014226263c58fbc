// `/mcp run` and `/mcp tools` against a server whose tools/list carries tools the MCP schema refuses (a
// `properties` that is no object, a `required` that is no array, a `description` that is no string) beside
// well-formed ones. Before, the SDK refused the whole list: "Could not list the tools of `fixture`: … its result
// does not follow the MCP schema", naming neither tool nor property, and no tool of the server could run. Now the
// well-formed tools are listed and run; running a refused one says its definition is malformed, naming the tool,
// the property and the problem, and sends nothing. A real MCP server (the SDK's) on an in-memory transport, the
// bot's MCP hub, and the Slack part driven through Bolt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpHub } from '../../src/mcp/hub.js';
import { mcpToolRunner } from '../../src/relay/sources/mcp.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { malformedToolsServer } from '../fixtures/malformed-tools.js';
import { inMemorySpec, recordingSink } from '../mcp/support.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

const BOT_TOKEN = 'xoxb-run-form-refused';

describe('/mcp run and /mcp tools of a server listing tools the MCP schema refuses', () => {
  let standin: SlackStandin;
  let part: RunningSlackPart;
  let hub: McpHub;
  const record = { listed: [] as (string | undefined)[], calls: [] as string[] };

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    hub = new McpHub({
      servers: [inMemorySpec('fixture')],
      sink: recordingSink(() => ({ action: 'cancel' })),
      connect: async () => {
        const [client, side] = InMemoryTransport.createLinkedPair();
        await malformedToolsServer(record).connect(side);
        return client;
      },
    });
    hub.start();
    part = await startSlackPart({ standin, botToken: BOT_TOKEN, tools: mcpToolRunner(hub) });
  });
  afterAll(async () => {
    await part.close();
    await hub.close();
    await standin.close();
  });

  /** The view that replaced `userId`'s loading view once `/mcp run fixture <tool>` ran: its text and blocks' types. */
  async function runFormOf(userId: string, tool: string): Promise<{ text: string; types: string[] }> {
    await part.driver.slashCommand({ userId, command: '/mcp', text: `run fixture ${tool}` });
    const updated = await standin.waitForCall(
      'views.update',
      (call) => call.ok && standin.openViews(userId).length > 0,
      10_000,
    );
    const { blocks } = updated.args.view as { blocks: { type: string; text?: { text: string } }[] };
    return { text: blocks.map((b) => b.text?.text ?? '').join('\n'), types: blocks.map((b) => b.type) };
  }

  it.each([
    ['bad_properties', 'U0BADPROPS', 'its input schema is malformed ("properties" must be object)'],
    ['bad_required', 'U0BADREQ', 'its input schema is malformed ("required" must be array)'],
    ['bad_type', 'U0BADTYPE', 'its input schema is malformed ("type": Invalid input: expected "object")'],
    [
      'bad_description',
      'U0BADDESC',
      'its definition is malformed ("description": Invalid input: expected string, received number)',
    ],
  ])(
    '%s: the modal says what is malformed, naming the tool and the problem',
    async (tool, userId, problem) => {
      const view = await runFormOf(userId, tool);
      expect(view.text, 'the person must be told which tool cannot run and why').toContain(
        `\`${tool}\` on \`fixture\` cannot run: ${problem}`,
      );
      expect(view.types, 'no arguments form may open for a refused tool').not.toContain('input');
    },
  );

  it('opens the form of a well-formed tool of the same list (its second page) and runs it', async () => {
    const view = await runFormOf('U0GOOD', 'echo');
    expect(view.types).toContain('input');
    const form = standin.openViews('U0GOOD').at(-1);
    const blocks = form?.view.blocks as { type: string; block_id: string }[] | undefined;
    const input = blocks?.find((b) => b.type === 'input');
    if (!form || !input) throw new Error('no arguments form open for echo');
    await part.driver.submitView({ userId: 'U0GOOD', viewId: form.id, values: { [input.block_id]: '7' } });
    await standin.waitForCall(
      'chat.postMessage',
      (call) => call.ok && JSON.stringify(call.args).includes('ran echo'),
      10_000,
    );
  });

  it('refuses a refused tool run with arguments typed inline, sending nothing to the server', async () => {
    await part.driver.slashCommand({
      userId: 'U0INLINE',
      command: '/mcp',
      text: 'run fixture bad_required {"a":"x"}',
    });
    const result = await standin.waitForCall(
      'chat.postMessage',
      (call) => call.ok && JSON.stringify(call.args).includes('bad_required'),
      10_000,
    );
    expect(JSON.stringify(result.args)).toContain('its definition is malformed');
  });

  it('/mcp tools lists the well-formed tools and names the ones left out', async () => {
    await part.driver.slashCommand({ userId: 'U0TOOLS', command: '/mcp', text: 'tools fixture' });
    const reply = await standin.waitForCall(
      'response_url',
      (call) => JSON.stringify(call.args).includes('Tools of fixture'),
      10_000,
    );
    const text = JSON.stringify(reply.args.blocks);
    expect(text).toContain('`ping` _(no arguments)_');
    expect(text).toContain('`echo` _(takes arguments)_');
    expect(text).toContain(
      'Left out, their definitions are malformed (`/mcp run` says why): `bad_properties`, `bad_required`, `bad_description`, `bad_type`',
    );
  });

  it('sent none of the refused tools to the server', () => {
    expect(record.calls, 'a tool the MCP schema refuses must not be called').toEqual(['echo']);
  });
});
