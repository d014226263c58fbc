// One MCP elicitation cycle of each era through the hub, in process, answers given by code (no human time):
// a 2026-07-28 tool that takes two `input_required` rounds (the MRTR fixture served through its fetch
// handler, no sockets: three `tools/call` requests, two questions) beside a 2025 elicitation cycle (the
// elicit fixture on an in-memory pair: `tools/call`, `elicitation/create`, its answer). Each beside its
// floor, measured in the same run: a tool call that asks nothing, to the same server on the same transport.
import { InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpHub } from '../src/mcp/hub.js';
import type { ElicitationSink, McpServerSpec } from '../src/mcp/types.js';
import { createElicitServer } from '../test/fixtures/elicit-server.js';
import { createMrtrHandler } from '../test/fixtures/mrtr-server.js';
import { nowUs, row, summarize, type Row } from './stats.js';

const origin = { userId: 'U1', teamId: 'T1' };
const WARM_UP = 20;

const MODERN: McpServerSpec = {
  name: 'modern',
  transport: { kind: 'http', url: 'http://mrtr.bench/mcp', headers: {} },
  elicitationTimeoutMs: 60_000,
};
const LEGACY: McpServerSpec = {
  name: 'legacy',
  // Never used: the connect factory below links an in-memory pair instead.
  transport: { kind: 'stdio', command: 'unused', args: [], env: {} },
  elicitationTimeoutMs: 60_000,
};

/** Answers every question at once: a name, a yes, or the 2025 fixture's one-field form. */
const sink: ElicitationSink = {
  ask: () => Promise.resolve({ action: 'accept', content: { name: 'Ada', ok: true } }),
};

function benchHub(): McpHub {
  const handler = createMrtrHandler();
  return new McpHub({
    servers: [MODERN, LEGACY],
    sink,
    connect: async (spec) => {
      if (spec.name === MODERN.name) {
        const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
        return new StreamableHTTPClientTransport(new URL('http://mrtr.bench/mcp'), { fetch });
      }
      const [client, server] = InMemoryTransport.createLinkedPair();
      await createElicitServer().connect(server);
      return client;
    },
  });
}

async function timed(n: number, once: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = nowUs();
    await once();
    samples.push(nowUs() - start);
  }
  return samples;
}

const ASK_ARGS = {
  message: 'Who are you?',
  schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

/** `n` samples of each; a result that is not the expected one stops the run. */
export async function roundsBench(n: number): Promise<Row[]> {
  const hub = benchHub();
  const call = async (server: string, tool: string, args: Record<string, unknown>, expect: string) => {
    const result = await hub.callTool({ server, tool, args, origin });
    if (!result.text.includes(expect)) throw new Error(`${server} ${tool} answered "${result.text}"`);
  };
  try {
    const modernFloor = await timed(n, () => call('modern', 'echo', {}, 'echo'));
    const modern = await timed(n, () => call('modern', 'two_rounds', {}, 'Hello, Ada!'));
    const legacyFloor = await timed(n, () => call('legacy', 'echo', { text: 'hi' }, 'hi'));
    const legacy = await timed(n, () => call('legacy', 'ask', ASK_ARGS, 'accept'));
    const mFloor = summarize(modernFloor);
    const lFloor = summarize(legacyFloor);
    const note = 'same server and transport, this run';
    return [
      row('mcp', '2026 tool call, no round (MRTR fixture, fetch handler)', mFloor, { note: 'floor' }),
      row('mcp', '2026 two-round MRTR call, answers by code', summarize(modern), {
        note,
        floorP50: mFloor.p50,
      }),
      row('mcp', '2025 tool call, no elicitation (in-memory pair)', lFloor, { note: 'floor' }),
      row('mcp', '2025 elicitation cycle, answer by code', summarize(legacy), {
        note,
        floorP50: lFloor.p50,
      }),
    ];
  } finally {
    await hub.close();
  }
}
