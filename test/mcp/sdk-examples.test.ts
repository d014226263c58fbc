// The SDK's elicitationFormExample checks accepted content against its own schema: what it refuses comes
// back to the caller as a failed tool result, and valid content registers.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import { httpSpec, startFormExample, type HttpPeer } from './peers.js';
import { recordingSink } from './support.js';

let peer: HttpPeer;
beforeAll(async () => {
  peer = await startFormExample();
});
afterAll(async () => {
  await peer.stop();
});

let hub: McpHub | undefined;
afterEach(async () => {
  await hub?.close();
});

const register = { server: 'forms', tool: 'register_user', args: {}, origin: { userId: 'U1' } };

describe('McpHub against the SDK elicitationFormExample (Streamable HTTP)', () => {
  it('reports the server refusing content that breaks its schema as a failed tool result', async () => {
    const content = { username: 'ada', email: 'ada@example.com', password: 'short' };
    hub = new McpHub({
      servers: [httpSpec('forms', peer.url)],
      sink: recordingSink(() => ({ action: 'accept', content })),
    });
    const result = await hub.callTool(register);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Registration failed');
    expect(result.text).toContain('password');
  });

  it('registers with valid content, the schema defaults filled in', async () => {
    const content = { username: 'ada', email: 'ada@example.com', password: 'long enough' };
    hub = new McpHub({
      servers: [httpSpec('forms', peer.url)],
      sink: recordingSink(() => ({ action: 'accept', content })),
    });
    const result = await hub.callTool(register);
    expect(result.isError).toBe(false);
    expect(result.text).toContain('Registration successful!');
    expect(result.text).toContain('Newsletter: No');
  });
});
