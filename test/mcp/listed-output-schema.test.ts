// A 2025 tool with an outputSchema: the SDK checks a call's structuredContent against it (MCP: clients SHOULD),
// from the tools/list it cached, which only the connection that listed holds. A lenient listing (one malformed
// tool beside it, hub-refused-tools.test.ts) filled no cache at all, and a listing over the control link none of
// the sessions that run calls: their calls went unchecked. Now the listed definition goes with each call
// (callTool's toolDefinition), so every call is checked as one on the listing connection was. A real SDK server
// whose calls return no structuredContent, on an in-memory transport, and the real McpHub.
import { afterEach, describe, expect, it } from 'vitest';
import type { McpHub } from '../../src/mcp/hub.js';
import { McpClientError } from '../../src/mcp/types.js';
import { malformedToolsHub } from './malformed-hub.js';

const origin = { userId: 'U1' };
const hubs: McpHub[] = [];

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

const MEASURED = {
  name: 'measured',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
};
const BAD_TYPE = { name: 'bad_type', inputSchema: { type: 'string' } };

const makeHub = (tools: Record<string, unknown>[]) => malformedToolsHub('measured', tools, hubs);

const call = { server: 'measured', tool: 'measured', args: {}, origin };

/** How a call ends: its result's text, or its error's code and message. */
async function outcome(hub: McpHub): Promise<unknown> {
  return hub.callTool(call).then(
    (result) => ({ result: result.text }),
    (error: unknown) =>
      error instanceof McpClientError ? { code: error.code, error: error.message } : { error },
  );
}

/** The refusal of a result without the structuredContent an outputSchema wants, as the hub words it. */
const UNSTRUCTURED = {
  code: 'tool_failed',
  error: 'tool measured on measured returned no structuredContent, which its outputSchema requires',
};

describe("a 2025 tool's outputSchema", () => {
  it('checks a call after a lenient listing as a call after a normal listing is checked', async () => {
    const normal = await outcome(makeHub([MEASURED]).hub);
    expect(normal, 'the server ran it, but its result has no structuredContent').toEqual(UNSTRUCTURED);
    const { hub, record } = makeHub([BAD_TYPE, MEASURED]);
    expect(await outcome(hub)).toEqual(normal);
    expect(record.listed, 'the listing was the lenient one').toEqual([undefined, undefined]);
  });

  it("checks a call on a person's session after the tools were listed over the control link", async () => {
    const { hub } = makeHub([MEASURED]);
    expect((await hub.listTools('measured', origin)).map((tool) => tool.name)).toEqual(['measured']);
    expect(await outcome(hub)).toEqual(UNSTRUCTURED);
  });
});
