// Per-server elicitation policy (elicitationMode) and URL-mode completion, against the in-memory fixture.
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import type { ElicitationMode, ElicitationSink } from '../../src/mcp/types.js';
import { askArgs, inMemoryConnect, inMemorySpec, recordingSink } from './support.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

function makeHub(sink: ElicitationSink, mode?: ElicitationMode): McpHub {
  const hub = new McpHub({
    servers: [inMemorySpec('fixture', mode)],
    sink,
    connect: inMemoryConnect().connect,
  });
  hubs.push(hub);
  return hub;
}

const call = (hub: McpHub, tool: string, args: Record<string, unknown> = {}) =>
  hub.callTool({ server: 'fixture', tool, args, origin: { userId: 'U1' } });

const URL_ARGS = { message: 'Sign in', url: 'https://example.com/oauth', elicitationId: 'el-9' };

describe('elicitation policy per server', () => {
  it('declares form and URL modes with applyDefaults by default', async () => {
    const hub = makeHub(recordingSink(() => ({ action: 'decline' })));
    const declared = JSON.parse((await call(hub, 'capabilities')).text) as Record<string, unknown>;
    expect(declared['elicitation']).toEqual({ form: { applyDefaults: true }, url: {} });
  });

  it("answers decline without asking the sink in mode 'decline'", async () => {
    const sink = recordingSink(() => ({ action: 'accept', content: { name: 'Ada' } }));
    const hub = makeHub(sink, 'decline');
    expect(JSON.parse((await call(hub, 'ask', askArgs())).text)).toEqual({ action: 'decline' });
    expect(JSON.parse((await call(hub, 'ask_url', URL_ARGS)).text)).toEqual({ action: 'decline' });
    expect(sink.asked).toHaveLength(0);
  });

  it("still answers an invalid request with -32602 in mode 'decline'", async () => {
    const hub = makeHub(
      recordingSink(() => ({ action: 'decline' })),
      'decline',
    );
    const schema = { type: 'object', properties: { address: { type: 'object' } } };
    const { error } = JSON.parse((await call(hub, 'ask', askArgs(schema))).text) as {
      error: { code: number };
    };
    expect(error.code).toBe(-32602);
  });

  it("declares no elicitation capability in mode 'off'", async () => {
    const hub = makeHub(
      recordingSink(() => ({ action: 'decline' })),
      'off',
    );
    const declared = JSON.parse((await call(hub, 'capabilities')).text) as Record<string, unknown>;
    expect(declared['elicitation']).toBeUndefined();
  });

  it("answers a request sent anyway in mode 'off' with -32601 (method not found), sink not asked", async () => {
    const sink = recordingSink(() => ({ action: 'accept', content: { name: 'Ada' } }));
    const hub = makeHub(sink, 'off');
    const result = await call(hub, 'ask', askArgs());
    expect(result.isError).toBe(true);
    expect((JSON.parse(result.text) as { error: { code: number } }).error.code).toBe(-32601);
    expect(sink.asked).toHaveLength(0);
  });
});

describe('URL-mode completion (notifications/elicitation/complete)', () => {
  it('hands the completed elicitationId to sink.complete with the session context', async () => {
    let completed: (value: {
      id: string;
      ctx: { server: string; origin: { userId: string } };
    }) => void = () => undefined;
    const done = new Promise<{ id: string; ctx: { server: string; origin: { userId: string } } }>(
      (resolve) => {
        completed = resolve;
      },
    );
    const sink = {
      ...recordingSink(() => ({ action: 'accept', content: {} })),
      complete: (id: string, ctx: { server: string; origin: { userId: string } }) => completed({ id, ctx }),
    };
    const hub = makeHub(sink);
    const result = await call(hub, 'ask_url_then_complete', URL_ARGS);
    expect(JSON.parse(result.text)).toMatchObject({ action: 'accept' });
    expect(await done).toEqual({ id: 'el-9', ctx: { server: 'fixture', origin: { userId: 'U1' } } });
  });

  it('keeps the session working when the sink has no complete method or it throws', async () => {
    const accept = () => ({ action: 'accept', content: {} }) as const;
    const throwing = {
      ...recordingSink(accept),
      complete: () => {
        throw new Error('unknown id');
      },
    };
    for (const sink of [recordingSink(accept), throwing]) {
      const hub = makeHub(sink);
      await call(hub, 'ask_url_then_complete', URL_ARGS);
      expect(await call(hub, 'echo', { text: 'still here' })).toEqual({
        isError: false,
        text: 'still here',
        callResult: { content: [{ type: 'text', text: 'still here' }] },
      });
    }
  });
});
