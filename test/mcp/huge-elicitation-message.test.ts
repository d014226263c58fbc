// A server whose elicitation message runs to megabytes (nothing in the spec bounds it; stdio carries 10 MB): Slack
// never shows more of it than the form's message sections hold, yet drawing a card or form walked the whole text,
// about a second of CPU per megabyte for each card, form and update, with every other person's clicks waiting. The
// question reaches the relay cut to what can be shown, the cut marked, in form and URL mode alike.
import { afterEach, describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SECTION_TEXT_MAX } from '../../blocks/index.js';
import { McpHub } from '../../src/mcp/hub.js';
import { deferred } from '../support/deferred.js';
import { drivenServer } from './driven-server.js';
import { inMemorySpec, recordingSink, type Asked } from './support.js';

/** The form shows a message in at most 9 sections of SECTION_TEXT_MAX characters (blocks/modal.ts). */
const SHOWN_MAX = 9 * SECTION_TEXT_MAX;
const HUGE = `Approve this change?\n${'diff line\n'.repeat(400_000)}`;

let hub: McpHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

const requests: [string, Record<string, unknown>][] = [
  ['form', { message: HUGE, requestedSchema: { type: 'object', properties: {} } }],
  ['url', { mode: 'url', message: HUGE, url: 'https://example.com/approve', elicitationId: 'e-1' }],
];

describe.each(requests)('a %s-mode elicitation whose message runs to megabytes', (_mode, params) => {
  it('reaches the relay cut to what Slack can show, ending in an ellipsis', async () => {
    const done = deferred<Record<string, unknown>>();
    const server = drivenServer(done.promise);
    const asked = deferred<Asked>();
    const sink = recordingSink((entry) => (asked.resolve(entry), { action: 'decline' }));
    hub = new McpHub({ servers: [inMemorySpec('verbose')], sink, connect: server.connect });
    const call = hub.callTool({ server: 'verbose', tool: 't', args: {}, origin: { userId: 'U1' } });
    // Handled here too, so that a failed expectation below leaves no unhandled rejection behind.
    call.catch(() => undefined);
    const request: JSONRPCMessage = { jsonrpc: '2.0', id: 1, method: 'elicitation/create', params };
    await server.send(request);

    const { message } = (await asked.promise).request;
    expect(message.length).toBeLessThanOrEqual(SHOWN_MAX + 1);
    expect(message.length).toBeGreaterThan(SHOWN_MAX - 10);
    expect(HUGE.startsWith(message.slice(0, -1))).toBe(true);
    expect(message.endsWith('…')).toBe(true);
    await server.when(() => server.replies.has(1));
    done.resolve({ content: [{ type: 'text', text: 'declined' }] });
    await call;
  });
});
