// Against an outside peer: @modelcontextprotocol/server-everything, over stdio and over Streamable HTTP,
// through every elicitation path it has: the 13-field form, decline and cancel, URL mode by request and
// by -32042 error, and a task-augmented tool that asks for clarification while `input_required`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import type { McpServerSpec, ProgressUpdate } from '../../src/mcp/types.js';
import {
  everythingStdio,
  httpSpec,
  startEverythingHttp,
  startEverythingSse,
  type HttpPeer,
} from './peers.js';
import { recordingSink } from './support.js';

const content = {
  name: 'Ada Lovelace',
  check: true,
  email: 'ada@example.com',
  integer: 7,
  untitledMultipleSelectEnum: ['Piano'],
  titledSingleSelectEnum: 'hero-3',
};
const origin = { userId: 'U1' };

let http: HttpPeer | undefined;
beforeAll(async () => {
  http = await startEverythingHttp();
});
afterAll(async () => {
  await http?.stop();
});

let hub: McpHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

const transports: [string, () => McpServerSpec][] = [
  ['stdio', () => everythingStdio()],
  ['Streamable HTTP', () => httpSpec('everything', http?.url ?? '')],
];

describe.each(transports)('McpHub against server-everything over %s', (_transport, spec) => {
  it('answers trigger-elicitation-request and the tool result reflects the accepted content', async () => {
    const sink = recordingSink(() => ({ action: 'accept', content }));
    hub = new McpHub({ servers: [spec()], sink });
    const tools = (await hub.listTools('everything')).map((t) => t.name);
    expect(tools).toContain('trigger-elicitation-request');

    const result = await hub.callTool({
      server: 'everything',
      tool: 'trigger-elicitation-request',
      args: {},
      origin,
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('User provided the requested information');
    expect(result.text).toContain('Ada Lovelace');
    expect(result.text).toContain('ada@example.com');

    // It sends no `mode`: that is form mode, with the whole raw schema (13 fields, enumNames kept).
    const asked = sink.asked[0]?.request;
    expect(asked?.mode).toBe('form');
    const schema = (asked as { requestedSchema: { properties: Record<string, Record<string, unknown>> } })
      .requestedSchema;
    expect(Object.keys(schema.properties)).toHaveLength(13);
    expect(schema.properties['legacyTitledEnum']?.['enumNames']).toEqual([
      'Cats',
      'Dogs',
      'Birds',
      'Fish',
      'Reptiles',
    ]);
    expect(sink.asked[0]?.ctx).toMatchObject({
      server: 'everything',
      origin,
      serverInfo: { name: 'mcp-servers/everything' },
    });
  });

  it('answers decline and the tool result says so', async () => {
    hub = new McpHub({ servers: [spec()], sink: recordingSink(() => ({ action: 'decline' })) });
    const result = await hub.callTool({
      server: 'everything',
      tool: 'trigger-elicitation-request',
      args: {},
      origin,
    });
    expect(result.text).toContain('declined');
  });

  it('answers cancel and the tool result says so', async () => {
    hub = new McpHub({ servers: [spec()], sink: recordingSink(() => ({ action: 'cancel' })) });
    const result = await hub.callTool({
      server: 'everything',
      tool: 'trigger-elicitation-request',
      args: {},
      origin,
    });
    expect(result.text).toContain('cancelled');
  });

  it('asks a URL-mode question for trigger-url-elicitation and relays accept as consent', async () => {
    const sink = recordingSink(() => ({ action: 'accept', content: {} }));
    hub = new McpHub({ servers: [spec()], sink });
    const url = 'https://example.com/connect?step=1';
    const result = await hub.callTool({
      server: 'everything',
      tool: 'trigger-url-elicitation',
      args: { url, message: 'Connect your account', elicitationId: 'el-1' },
      origin,
    });
    expect(sink.asked[0]?.request).toEqual({
      mode: 'url',
      url,
      message: 'Connect your account',
      elicitationId: 'el-1',
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('User completed the URL elicitation flow');
  });

  it('turns the -32042 error path into links to open, and the retry of the same call then asks', async () => {
    const sink = recordingSink(() => ({ action: 'decline' }));
    hub = new McpHub({ servers: [spec()], sink });
    const call = {
      server: 'everything',
      tool: 'trigger-url-elicitation',
      args: { url: 'https://example.com/authorize', message: 'Authorize', errorPath: true },
      origin,
    };
    const first = await hub.callTool(call);
    expect(first.isError).toBe(true);
    expect(first.urlRequired?.map((link) => link.url)).toEqual(['https://modelcontextprotocol.io']);
    expect(first.urlRequired?.[0]?.elicitationId).not.toBe('');
    expect(sink.asked).toHaveLength(0);

    const retried = await hub.callTool(call);
    expect(retried.urlRequired).toBeUndefined();
    expect(sink.asked.map((a) => a.request.mode)).toEqual(['url']);
    expect(retried.text).toContain('declined to open the URL');
  });

  it('runs simulate-research-query as a task: its status reaches the caller, its question is answered, its report comes back', async () => {
    const sink = recordingSink(() => ({ action: 'accept', content: { interpretation: 'snake' } }));
    hub = new McpHub({ servers: [spec()], sink });
    const [tool] = (await hub.listTools('everything')).filter((t) => t.name === 'simulate-research-query');
    expect(tool?.taskSupport).toBe('required');

    const updates: ProgressUpdate[] = [];
    const result = await hub.callTool({
      server: 'everything',
      tool: 'simulate-research-query',
      args: { topic: 'python', ambiguous: true },
      origin,
      onProgress: (update) => updates.push(update),
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('Research Report: python (snake)');
    const asked = sink.asked[0];
    expect(asked?.request.mode).toBe('form');
    expect(asked?.request.message).toContain('"python" could have multiple interpretations');
    expect(asked?.ctx.origin).toEqual(origin);
    expect(updates.map((u) => u.message).filter((m) => m !== undefined).length).toBeGreaterThan(0);
  });
});

describe('McpHub against server-everything over legacy HTTP+SSE', () => {
  let sse: HttpPeer | undefined;
  beforeAll(async () => {
    sse = await startEverythingSse();
  });
  afterAll(async () => {
    await sse?.stop();
  });

  const ask = async (transport: McpServerSpec['transport']): Promise<string> => {
    const sink = recordingSink(() => ({ action: 'accept', content }));
    hub = new McpHub({ servers: [{ name: 'everything', transport, elicitationTimeoutMs: 60_000 }], sink });
    const result = await hub.callTool({
      server: 'everything',
      tool: 'trigger-elicitation-request',
      args: {},
      origin,
    });
    expect(sink.asked).toHaveLength(1);
    return result.text;
  };

  it('relays an accepted form when configured as SSE', async () => {
    expect(await ask({ kind: 'sse', url: sse?.url ?? '', headers: {} })).toContain('Ada Lovelace');
  });

  it('falls back to SSE when a URL configured as Streamable HTTP refuses the initialize POST', async () => {
    expect(await ask({ kind: 'http', url: sse?.url ?? '', headers: {} })).toContain('Ada Lovelace');
  });
});
