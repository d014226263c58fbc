// A server whose tools/call result breaks the MCP schema (a content block of a type no revision defines, an image
// without its mimeType): the call fails as the tool failing, in one line naming the server, not with the SDK's
// dump of every content kind the block is not (kilobytes of JSON a person would get in Slack, and an API call
// in its `error`).
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import { McpClientError } from '../../src/mcp/types.js';
import { drivenServer } from './driven-server.js';
import { inMemorySpec } from './support.js';

let hub: McpHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

const broken: [string, Record<string, unknown>][] = [
  ['a content block of an unknown type', { content: [{ type: 'video', uri: 'https://example.com/v.mp4' }] }],
  [
    'an error result whose image has no mimeType',
    {
      isError: true,
      content: [
        { type: 'text', text: 'failed' },
        { type: 'image', data: 'aGk=' },
      ],
    },
  ],
];

describe.each(broken)('a tools/call result with %s', (_what, result) => {
  it('fails the call as tool_failed, in one line naming the server', async () => {
    const server = drivenServer(Promise.resolve(result));
    hub = new McpHub({
      servers: [inMemorySpec('sloppy')],
      sink: { ask: () => Promise.resolve({ action: 'cancel' }) },
      connect: server.connect,
    });
    const failure = await hub
      .callTool({ server: 'sloppy', tool: 't', args: {}, origin: { userId: 'U1' } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );

    expect(failure).toBeInstanceOf(McpClientError);
    const { code, message } = failure as McpClientError;
    expect(code).toBe('tool_failed');
    expect(message).toContain('sloppy');
    expect(message).not.toContain('\n');
    expect(message.length).toBeLessThan(200);
  });
});
