// What the Slack side reads from the hub: server identity, the tool list, progress and -32042 links.
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import type { ProgressUpdate } from '../../src/mcp/types.js';
import { askArgs, inMemoryConnect, inMemorySpec, recordingSink } from './support.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

function makeHub() {
  const memory = inMemoryConnect();
  const sink = recordingSink(() => ({ action: 'decline' }));
  const hub = new McpHub({ servers: [inMemorySpec()], sink, connect: memory.connect });
  hubs.push(hub);
  return { hub, sink, opened: memory.opened };
}

const U1 = { userId: 'U1' };

describe('what the Slack side reads from the hub', () => {
  it("hands the server's initialize identity to the sink with each elicitation", async () => {
    const { hub, sink } = makeHub();
    await hub.callTool({ server: 'fixture', tool: 'ask', args: askArgs(), origin: U1 });
    expect(sink.asked[0]?.ctx.serverInfo).toEqual({
      name: 'elicit-fixture',
      version: '1.0.0',
      title: 'Elicit Fixture',
    });
  });

  it('lists tools with title, description and input schema', async () => {
    const { hub } = makeHub();
    const tools = await hub.listTools('fixture');
    const progress = tools.find((tool) => tool.name === 'progress');
    expect(progress).toEqual({
      name: 'progress',
      description: 'Sends `steps` progress notifications, then answers "done"',
      inputSchema: expect.objectContaining({
        type: 'object',
        properties: { steps: { type: 'number' } },
        required: ['steps'],
      }) as unknown,
    });
  });

  it('answers a second listing from the cache', async () => {
    const { hub, opened } = makeHub();
    const first = await hub.listTools('fixture');
    const second = await hub.listTools('fixture');
    expect(second).toEqual(first);
    expect(opened()).toBe(1);
  });

  it('fetches the list again after the server sends notifications/tools/list_changed', async () => {
    const { hub } = makeHub();
    expect((await hub.listTools('fixture')).map((t) => t.name)).not.toContain('extra');
    await hub.callTool({ server: 'fixture', tool: 'add_tool', args: { name: 'extra' }, origin: U1 });
    const extra = (await hub.listTools('fixture')).find((t) => t.name === 'extra');
    expect(extra).toMatchObject({ name: 'extra', title: 'Added extra' });
  });

  it('passes progress notifications to onProgress, in order', async () => {
    const { hub } = makeHub();
    const updates: ProgressUpdate[] = [];
    const result = await hub.callTool({
      server: 'fixture',
      tool: 'progress',
      args: { steps: 3 },
      origin: U1,
      onProgress: (update) => updates.push(update),
    });
    expect(result).toEqual({
      isError: false,
      text: 'done',
      callResult: { content: [{ type: 'text', text: 'done' }] },
    });
    expect(updates).toEqual([1, 2, 3].map((n) => ({ progress: n, total: 3, message: `step ${n}` })));
  });

  it('turns a -32042 answer into urlRequired: the links to open before retrying', async () => {
    const { hub } = makeHub();
    const url = 'https://example.com/login';
    const result = await hub.callTool({ server: 'fixture', tool: 'require_url', args: { url }, origin: U1 });
    expect(result).toEqual({
      isError: true,
      text: 'URL elicitation required',
      urlRequired: [{ elicitationId: expect.any(String) as unknown, url, message: 'Sign in first' }],
    });
  });

  it('rejects a -32042 with no valid link as tool_failed, keeping the code', async () => {
    const { hub } = makeHub();
    const call = hub.callTool({ server: 'fixture', tool: 'require_url_malformed', args: {}, origin: U1 });
    await expect(call).rejects.toMatchObject({ code: 'tool_failed', rpcCode: -32042 });
  });
});
