// `/mcp run` and `/mcp tools` against a server whose tools/list carries tools the MCP schema refuses (a
// `properties` that is no object, a `required` that is no array, a `description` that is no string) beside
// well-formed ones. Before, the SDK refused the whole list: "Could not list the tools of `fixture`: … its result
// does not follow the MCP schema", naming neither tool nor property, and no tool of the server could run. Now the
// well-formed tools are listed and run; running a refused one says its definition is malformed, naming the tool,
// the property and the problem, and sends nothing. A real MCP server (the SDK's) on an in-memory transport, the
// bot's MCP hub, and the Slack part driven through Bolt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { malformedToolsServer } from '../fixtures/malformed-tools.js';
import { startHubRunPart, type HubRunPart } from './hub-run-part.js';

const BOT_TOKEN = 'xoxb-run-form-refused';

describe('/mcp run and /mcp tools of a server listing tools the MCP schema refuses', () => {
  let run: HubRunPart;
  const record = { listed: [] as (string | undefined)[], calls: [] as string[] };

  beforeAll(async () => {
    run = await startHubRunPart({ botToken: BOT_TOKEN, server: () => malformedToolsServer(record) });
  });
  afterAll(() => run.close());

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
      const view = await run.runFormOf(userId, tool);
      expect(view.text, 'the person must be told which tool cannot run and why').toContain(
        `\`${tool}\` on \`fixture\` cannot run: ${problem}`,
      );
      expect(view.types, 'no arguments form may open for a refused tool').not.toContain('input');
    },
  );

  it('opens the form of a well-formed tool of the same list (its second page) and runs it', async () => {
    const view = await run.runFormOf('U0GOOD', 'echo');
    expect(view.types).toContain('input');
    await run.submitFirstInput('U0GOOD', 'echo', '7');
  });

  it('refuses a refused tool run with arguments typed inline, sending nothing to the server', async () => {
    await run.part.driver.slashCommand({
      userId: 'U0INLINE',
      command: '/mcp',
      text: 'run fixture bad_required {"a":"x"}',
    });
    const result = await run.standin.waitForCall(
      'chat.postMessage',
      (call) => call.ok && JSON.stringify(call.args).includes('bad_required'),
      10_000,
    );
    expect(JSON.stringify(result.args)).toContain('its definition is malformed');
  });

  it('/mcp tools lists the well-formed tools and names the ones left out', async () => {
    await run.part.driver.slashCommand({ userId: 'U0TOOLS', command: '/mcp', text: 'tools fixture' });
    const reply = await run.standin.waitForCall(
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
