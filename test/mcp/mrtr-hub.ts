// The hub against the 2026-07-28 fixture (test/fixtures/mrtr-server.ts) served in process through its fetch
// handler, for test/mcp/mrtr.test.ts: the hub, the sink recording the questions it asks, and each tools/call
// exchange with the fixture (what the hub sent, what the fixture answered).
import { afterEach } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpHub } from '../../src/mcp/hub.js';
import type { DurableRounds, McpServerSpec } from '../../src/mcp/types.js';
import type { Outcome } from '../../src/relay/types.js';
import { createMrtrHandler } from '../fixtures/mrtr-server.js';
import { inMemoryConnect, recordingSink, type Asked } from './support.js';

export const origin = { userId: 'U1', teamId: 'T1', channelId: 'D1' };
const MODERN: McpServerSpec = {
  name: 'modern',
  transport: { kind: 'http', url: 'http://mrtr.test/mcp', headers: {} },
  elicitationTimeoutMs: 60_000,
};

/** Each `tools/call` the hub sent to the fixture, and the text of the fixture's answer to it. */
export interface Exchange {
  sent: { id: unknown; params: { inputResponses?: Record<string, unknown>; requestState?: string } };
  answered: string;
  /** The request's Mcp-Param-Region header (SEP-2243), null when it had none. */
  region: string | null;
}

/**
 * A hub whose 'modern' server is the MRTR fixture (in process) and whose other servers are 2025 fixtures;
 * `exchanges` records its tools/call traffic.
 */
function mrtrHub(
  answer: (asked: Asked) => Outcome,
  legacy: McpServerSpec[] = [],
  expiringTtlSeconds?: number,
  maxRounds = 10,
  rounds?: DurableRounds,
) {
  const handler = createMrtrHandler(expiringTtlSeconds === undefined ? {} : { expiringTtlSeconds });
  const memory = inMemoryConnect();
  const sink = recordingSink(answer);
  const exchanges: Exchange[] = [];
  const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await handler.fetch(new Request(url, init));
    const sent: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (isToolCall(sent)) {
      const region = new Headers(init?.headers).get('mcp-param-region');
      exchanges.push({ sent, answered: await response.clone().text(), region });
    }
    return response;
  };
  const hub = new McpHub({
    servers: [{ ...MODERN, maxRounds }, ...legacy],
    sink,
    ...(rounds === undefined ? {} : { rounds }),
    connect: (spec) =>
      spec.name === MODERN.name
        ? new StreamableHTTPClientTransport(
            new URL(MODERN.transport.kind === 'http' ? MODERN.transport.url : ''),
            {
              fetch,
            },
          )
        : memory.connect(),
  });
  return { hub, sink, exchanges };
}

/** Call once at a file's top level: makes hubs as mrtrHub does, each closed after the test that made it. */
export function mrtrHubsClosedAfterEach(): typeof mrtrHub {
  const hubs: McpHub[] = [];
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  });
  return (...args) => {
    const made = mrtrHub(...args);
    hubs.push(made.hub);
    return made;
  };
}

function isToolCall(body: unknown): body is Exchange['sent'] {
  return typeof body === 'object' && body !== null && 'method' in body && body.method === 'tools/call';
}

/** The requestState in the text of a fixture answer (JSON or an SSE event), as the bytes it sent. */
export const stateIn = (answered: string): string | undefined =>
  /"requestState":("(?:[^"\\]|\\.)*")/.exec(answered)?.[1];

export const call = (h: McpHub, tool: string) => h.callTool({ server: 'modern', tool, args: {}, origin });
