// The lenient listing's raw pages (src/mcp/raw-results.ts) against a server that misbehaves on them: it answers a
// raw page with a numeric id, answers it twice, never answers, closes the connection mid-listing, sends pages
// forever or one of 10,000 tools. A hand-driven 2025-06-18 server on an in-memory pair: the SDK's own tools/list
// (numeric id) gets a page with one malformed tool, so the hub reads the pages again raw (string ids), and
// `raw` decides what each raw page gets. The real McpHub, on a hand-run clock where time matters.
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { McpHub } from '../../src/mcp/hub.js';
import { handClock, inMemorySpec, recordingSink } from './support.js';
import { deferred } from '../support/deferred.js';

const origin = { userId: 'U1' };
const GOOD = { name: 'good', inputSchema: { type: 'object' } };
const BAD = { name: 'bad', inputSchema: { type: 'string' } };

/** What one raw page request gets: `reply` sends a message to the bot; `n` counts raw pages from 0. */
type RawPage = (page: {
  id: string;
  reply: (message: JSONRPCMessage) => void;
  close: () => void;
  n: number;
}) => void;

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

function scriptedHub(raw: RawPage, clock = handClock()) {
  const seen: JSONRPCMessage[] = [];
  const rawAsked = deferred<string>();
  let pages = 0;
  const connect = async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const reply = (message: JSONRPCMessage) => void server.send(message).catch(() => undefined);
    server.onmessage = (message) => {
      seen.push(message);
      if (!('method' in message) || !('id' in message)) return;
      const answer = (result: Record<string, unknown>) => reply({ jsonrpc: '2.0', id: message.id, result });
      if (message.method === 'initialize') {
        const serverInfo = { name: 'scripted', version: '1.0.0' };
        return answer({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo });
      }
      if (message.method === 'tools/list' && typeof message.id === 'string') {
        rawAsked.resolve(message.id);
        return raw({ id: message.id, reply, close: () => void server.close(), n: pages++ });
      }
      if (message.method === 'tools/list') return answer({ tools: [GOOD, BAD] });
      if (message.method === 'ping') return answer({});
      if (message.method === 'tools/call') return answer({ content: [{ type: 'text', text: 'ran' }] });
      reply({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    };
    await server.start();
    return client;
  };
  const hub = new McpHub({
    servers: [inMemorySpec('scripted')],
    sink: recordingSink(() => ({ action: 'cancel' })),
    connect,
    clock: clock.clock,
  });
  hubs.push(hub);
  return { hub, seen, rawAsked: rawAsked.promise, clock };
}

const page = (id: string, result: Record<string, unknown>): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  result,
});
const page2 = (id: number, result: Record<string, unknown>): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  result,
});

/** How a promise ended: its value, or its error's code and message. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ code: (error as { code?: unknown }).code, message: String(error) }),
  );

describe('the raw pages of a lenient listing', () => {
  it("time out after 60 s on the hub's clock when the server never answers, and tell the server", async () => {
    const { hub, seen, rawAsked, clock } = scriptedHub(() => undefined);
    const listing = outcome(hub.listTools('scripted', origin));
    const id = await rawAsked;
    clock.advance(59_999);
    clock.advance(1);
    expect(await listing).toMatchObject({ code: 'timeout' });
    const cancelled = seen.find((m) => 'method' in m && m.method === 'notifications/cancelled');
    expect(cancelled).toMatchObject({ params: { requestId: id } });
  }, 5_000);

  it('wait out their time when the server answers a raw page with a numeric id', async () => {
    const { hub, rawAsked, clock } = scriptedHub(({ reply }) => reply(page2(99, { tools: [GOOD] })));
    const listing = outcome(hub.listTools('scripted', origin));
    await rawAsked;
    clock.advance(60_000);
    expect(await listing).toMatchObject({ code: 'timeout' });
  }, 5_000);

  it('take the first of two answers to one raw page; the second changes nothing', async () => {
    const { hub } = scriptedHub(({ id, reply }) => {
      reply(page(id, { tools: [GOOD, BAD] }));
      reply(page(id, { tools: [] }));
    });
    const listing = await hub.toolListing('scripted', origin);
    expect(listing.tools.map((tool) => tool.name)).toEqual(['good']);
    expect(listing.refused.map((tool) => tool.name)).toEqual(['bad']);
    expect(await hub.callTool({ server: 'scripted', tool: 'good', args: {}, origin })).toMatchObject({
      text: 'ran',
    });
  });

  it('fail as connection_closed when the server closes the connection mid-listing', async () => {
    const { hub } = scriptedHub(({ id, reply, close, n }) =>
      n === 0 ? reply(page(id, { tools: [GOOD], nextCursor: 'next' })) : close(),
    );
    expect(await outcome(hub.listTools('scripted', origin))).toMatchObject({ code: 'connection_closed' });
  });

  it('give up after 64 pages when the cursors never end', async () => {
    let pages = 0;
    const { hub } = scriptedHub(({ id, reply, n }) => {
      pages = n + 1;
      reply(page(id, { tools: [GOOD], nextCursor: `after-${n}` }));
    });
    await expect(hub.listTools('scripted', origin)).rejects.toMatchObject({
      code: 'tool_failed',
      message:
        'tools/list on scripted failed (tools/list: exceeded 64 pages; server pagination did not terminate)',
    });
    expect(pages).toBe(64);
  });

  it('sort a page of 10,000 tools, half of them malformed', async () => {
    const tools = Array.from({ length: 10_000 }, (_, i) =>
      i % 2 === 0
        ? { name: `good_${i}`, inputSchema: { type: 'object' } }
        : { name: `bad_${i}`, inputSchema: { type: 'string' } },
    );
    const { hub } = scriptedHub(({ id, reply }) => reply(page(id, { tools })));
    const listing = await hub.toolListing('scripted', origin);
    expect(listing.tools).toHaveLength(5_000);
    expect(listing.refused).toHaveLength(5_000);
  });
});

describe('a tool name listed twice, once with a malformed definition', () => {
  const BAD_GOOD = { ...BAD, name: 'good' };
  it.each([
    ['the good one first', [GOOD, BAD_GOOD]],
    ['the malformed one first', [BAD_GOOD, GOOD]],
  ])('is refused, never called, with %s', async (_order, tools) => {
    const { hub, seen } = scriptedHub(({ id, reply }) => reply(page(id, { tools })));
    const listing = await hub.toolListing('scripted', origin);
    expect(listing.tools.map((tool) => tool.name)).toEqual([]);
    expect(listing.refused.map((tool) => tool.name)).toEqual(['good']);
    const call = hub.callTool({ server: 'scripted', tool: 'good', args: {}, origin });
    await expect(call).rejects.toMatchObject({ code: 'malformed_tool' });
    expect(seen.filter((m) => 'method' in m && m.method === 'tools/call')).toEqual([]);
  });
});
