// The bot's MCP endpoint (POST /mcp) through the SDK's own client, with real Redis, the Slack stand-in and an
// MCP server behind it: ask_human answered in Slack, a gateway server's tool whose elicitation is answered in
// Slack by the configured person, its whole result passed through, and the API's refusals as tool errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RICH_RESULT } from '../fixtures/elicit-server.js';
import { fixtureCommand } from '../setup/compiled.js';
import { postJsonRpc } from '../support/json-rpc.js';
import { openForm, startHarness, type Harness } from './harness.js';

const TOKEN = 'mcp-endpoint-token-0123456789';
const APPROVE = {
  type: 'object',
  properties: { reason: { type: 'string', title: 'Why' } },
  required: ['reason'],
};

describe('the MCP endpoint', () => {
  let h: Harness;
  const clients: Client[] = [];
  beforeAll(async () => {
    h = await startHarness({
      env: { ELICIT_RELAY_API_TOKEN: TOKEN },
      servers: { gw: { ...fixtureCommand(), gateway: true } },
      config: { api: { gateway: { as: 'U2' } } },
      replicas: 2,
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await h.close();
  });

  const endpoint = (replica = 0) => new URL(`http://127.0.0.1:${h.replicas[replica]?.port}/mcp`);
  /** One JSON-RPC message POSTed as a host would, to the given replica. */
  const post = (replica: number, message: object) => postJsonRpc(endpoint(replica), TOKEN, message);
  async function agentHost(): Promise<Client> {
    const client = new Client({ name: 'headless-agent', version: '1.0.0' });
    clients.push(client);
    const headers = { authorization: `Bearer ${TOKEN}` };
    await client.connect(new StreamableHTTPClientTransport(endpoint(), { requestInit: { headers } }));
    return client;
  }

  /** The next card posted in `userId`'s DM. */
  const cardFor = async (userId: string) => {
    const channel = h.standin.dmChannelOf(userId);
    const call = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === channel && JSON.stringify(c.args.blocks).includes('elicit_respond'),
      15_000,
    );
    const card = h.standin
      .messagesIn(channel)
      .findLast((m) => JSON.stringify(m.blocks ?? '').includes('elicit_respond'));
    return { channel, ts: card?.ts ?? '', call };
  };

  it('refuses a request without the API token', async () => {
    const res = await fetch(endpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
  });

  it("answers ask_human with the person's answer from Slack as structuredContent", async () => {
    const host = await agentHost();
    const asked = host.callTool({
      name: 'ask_human',
      arguments: { message: 'Merge the release branch?', requestedSchema: APPROVE, to: { user: 'U1' } },
    });
    const card = await cardFor('U1');
    expect(JSON.stringify(card.call.args.blocks)).toContain('Merge the release branch?');
    const viewId = await openForm(h, 'U1', card);
    const block =
      (h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[]).find(
        (b) => b.type === 'input',
      )?.block_id ?? '';
    await h.driver.submitView({
      userId: 'U1',
      viewId,
      values: { [block]: 'tests pass' },
    });
    const result = await asked;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ action: 'accept', content: { reason: 'tests pass' } });
  });

  it('returns what the API would refuse as a tool error naming the field', async () => {
    const host = await agentHost();
    const result = await host.callTool({
      name: 'ask_human',
      arguments: { message: 'Deploy?', requestedSchema: APPROVE, to: { user: 'nobody' } },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/invalid_request: \/to\/user: /);
  });

  it("offers the gateway server's tools as gw__<tool>; their elicitations go to the configured person", async () => {
    const host = await agentHost();
    const { tools } = await host.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['ask_human', 'gw__ask', 'gw__echo']));
    expect(tools.some((t) => t.name.startsWith('fixture__'))).toBe(false);
    const called = host.callTool({
      name: 'gw__ask',
      arguments: { message: 'Rotate the key?', schema: APPROVE },
    });
    const card = await cardFor('U2');
    await h.driver.clickButton({ userId: 'U2', ...card, actionId: 'elicit_decline' });
    const result = await called;
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('decline');
  });

  it('refuses gateway arguments nested past 64 levels as a tool error, as the API refuses such bodies', async () => {
    const host = await agentHost();
    let deep: unknown = 'bottom';
    for (let level = 0; level < 100; level++) deep = [deep];
    const result = await host.callTool({ name: 'gw__echo', arguments: { text: 'x', extra: deep } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(
      'invalid_request: /arguments: must not nest objects and arrays more than 64 levels deep',
    );
  });

  it("withdraws ask_human's question when the host's cancel lands on another replica; the call answers cancel", async () => {
    const requestId = `cancel-elsewhere-${Date.now()}`;
    const call = await post(0, {
      id: requestId,
      method: 'tools/call',
      params: {
        name: 'ask_human',
        arguments: { message: 'Ship it on Friday?', requestedSchema: APPROVE, to: { user: 'U3' } },
      },
    });
    const card = await cardFor('U3');
    const cancel = await post(1, { method: 'notifications/cancelled', params: { requestId } });
    expect(cancel.status).toBe(202);
    const update = await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, 15_000);
    expect(JSON.stringify(update.args.blocks)).toContain('Withdrawn by an automation (default)');
    // Replica 0 still holds the host's request open: the withdrawal reaches it as the call's answer.
    const answer = sseMessages(await call.text()).find((m) => m.id === requestId);
    expect(answer?.result?.structuredContent).toEqual({ action: 'cancel' });
  });

  it("returns a gateway tool's whole result: every content block (an image among them), structuredContent and _meta", async () => {
    const host = await agentHost();
    const result = await host.callTool({ name: 'gw__rich', arguments: {} });
    expect(result).toEqual(RICH_RESULT);
  });
});

/** The JSON-RPC messages of a Streamable HTTP response's event stream. */
function sseMessages(text: string): { id?: unknown; result?: { structuredContent?: unknown } }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as { id?: unknown });
}
