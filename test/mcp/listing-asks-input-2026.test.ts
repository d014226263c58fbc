// A 2026-07-28 server whose tools/list answers input_required. The revision lets only tools/call, prompts/get and
// resources/read ask for input, so the listing breaks the MCP schema; the SDK (auto-fulfilment off, the hub runs
// rounds itself) refused it with a refusal of its own settings ("pass allowInputRequired: true ..."), which the
// person read as the reason their tools could not be listed. A real SDK 2.x server (createMcpHandler) over
// Streamable HTTP in process, whose tools/list answer is replaced on its way, as a server that breaks the rule
// would send it; the real McpHub.
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpHub } from '../../src/mcp/hub.js';
import { malformedTools2026 } from '../fixtures/malformed-tools-2026.js';
import { recordingSink } from './support.js';

const origin = { userId: 'U1' };
const URL_2026 = 'http://asks-input-2026.test/mcp';
const ASKS_INPUT = {
  resultType: 'input_required',
  inputRequests: {
    who: {
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Who?', requestedSchema: { type: 'object', properties: {} } },
    },
  },
};
const hubs: McpHub[] = [];

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** The fixture server, but every tools/list is answered `ASKS_INPUT`; `asked` counts those answers. */
function askingHub() {
  const record = { listed: [] as (string | undefined)[], calls: [] as string[] };
  const handler = malformedTools2026(record);
  let asked = 0;
  const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const body: unknown = request.method === 'POST' ? await request.clone().json() : undefined;
    if (typeof body === 'object' && body !== null && 'method' in body && body.method === 'tools/list') {
      asked += 1;
      const id = 'id' in body ? body.id : null;
      return Response.json({ jsonrpc: '2.0', id, result: ASKS_INPUT });
    }
    return handler.fetch(request);
  };
  const hub = new McpHub({
    servers: [
      { name: 'asks', transport: { kind: 'http', url: URL_2026, headers: {} }, elicitationTimeoutMs: 60_000 },
    ],
    sink: recordingSink(() => ({ action: 'cancel' })),
    connect: () => new StreamableHTTPClientTransport(new URL(URL_2026), { fetch }),
  });
  hubs.push(hub);
  return { hub, record, asked: () => asked };
}

describe('a 2026-07-28 tools/list that asks for input', () => {
  it('fails the listing as a result that breaks the MCP schema, in words a person can read', async () => {
    const { hub, asked } = askingHub();
    await expect(hub.listTools('asks', origin)).rejects.toMatchObject({
      code: 'tool_failed',
      message: 'tools/list on asks failed: its result does not follow the MCP schema',
    });
    expect(asked()).toBe(1);
  });

  it('still runs a tool, sent as named', async () => {
    const { hub, record } = askingHub();
    const ran = await hub.callTool({ server: 'asks', tool: 'ping', args: {}, origin });
    expect(ran).toMatchObject({ isError: false, text: 'ran ping {}' });
    expect(record.calls).toEqual(['ping']);
  });
});
