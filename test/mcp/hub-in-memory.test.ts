import { afterEach, describe, expect, it } from 'vitest';
import { McpHub, type McpHubOptions } from '../../src/mcp/hub.js';
import { McpClientError, type ElicitationSink } from '../../src/mcp/types.js';
import { RelayError } from '../../src/relay/errors.js';
import type { Outcome } from '../../src/relay/types.js';
import { askArgs, FLAT_SCHEMA, handClock, inMemoryConnect, inMemorySpec, recordingSink } from './support.js';
import { deferred } from '../support/deferred.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

function makeHub(sink: ElicitationSink, extra: Partial<McpHubOptions> = {}) {
  const memory = inMemoryConnect();
  const hub = new McpHub({ servers: [inMemorySpec()], sink, connect: memory.connect, ...extra });
  hubs.push(hub);
  return { hub, opened: memory.opened };
}

const ask = (hub: McpHub, userId = 'U1', args = askArgs()) =>
  hub.callTool({ server: 'fixture', tool: 'ask', args, origin: { userId } });

describe('McpHub elicitation round trip (in-memory fixture server)', () => {
  it('relays an accepted answer so the server receives the content', async () => {
    const sink = recordingSink(() => ({ action: 'accept', content: { name: 'Ada', age: 36 } }));
    const { hub } = makeHub(sink);
    const result = await ask(hub);
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.text)).toEqual({ action: 'accept', content: { name: 'Ada', age: 36 } });
    expect(sink.asked[0]?.request).toEqual({
      mode: 'form',
      message: 'Who are you?',
      requestedSchema: FLAT_SCHEMA,
    });
    expect(sink.asked[0]?.ctx).toMatchObject({ server: 'fixture', origin: { userId: 'U1' } });
  });

  it.each<Outcome>([{ action: 'decline' }, { action: 'cancel' }])(
    'relays $action without content',
    async (outcome) => {
      const { hub } = makeHub(recordingSink(() => outcome));
      expect(JSON.parse((await ask(hub)).text)).toEqual(outcome);
    },
  );

  it('fills schema defaults into accepted content (applyDefaults)', async () => {
    const schema = { type: 'object', properties: { color: { type: 'string', default: 'blue' } } };
    const { hub } = makeHub(recordingSink(() => ({ action: 'accept', content: {} })));
    expect(JSON.parse((await ask(hub, 'U1', askArgs(schema))).text)).toEqual({
      action: 'accept',
      content: { color: 'blue' },
    });
  });

  it('hands the sink the raw requestedSchema, keywords the SDK would strip included', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]{3}$', 'x-hint': 'three letters' } },
    };
    const sink = recordingSink(() => ({ action: 'decline' }));
    const { hub } = makeHub(sink);
    await ask(hub, 'U1', askArgs(schema));
    expect(sink.asked[0]?.request).toEqual({
      mode: 'form',
      message: 'Who are you?',
      requestedSchema: schema,
    });
  });

  it('answers -32602 with the sink reason when the sink rejects the schema as invalid', async () => {
    const sink = recordingSink(() => {
      throw new RelayError('invalid_schema', 'property "age": minimum above maximum');
    });
    const { hub } = makeHub(sink);
    const result = await ask(hub);
    expect(result.isError).toBe(true);
    const { error } = JSON.parse(result.text) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('property "age": minimum above maximum');
  });

  it('answers -32603 without the error detail when the sink fails otherwise', async () => {
    const sink = recordingSink(() => {
      throw new Error('redis://:hunter2@cache:6379 unreachable');
    });
    const { hub } = makeHub(sink);
    const { error } = JSON.parse((await ask(hub)).text) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32603);
    expect(error.message).not.toContain('hunter2');
  });

  it('answers a nested schema with -32602 naming the property, without asking the sink', async () => {
    const schema = { type: 'object', properties: { address: { type: 'object', properties: {} } } };
    const sink = recordingSink(() => ({ action: 'decline' }));
    const { hub } = makeHub(sink);
    const { error } = JSON.parse((await ask(hub, 'U1', askArgs(schema))).text) as {
      error: { code: number; message: string };
    };
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('property "address" is not supported');
    expect(error.message.length).toBeLessThan(300);
    expect(sink.asked).toHaveLength(0);
  });

  it('passes URL-mode elicitations through as mode url', async () => {
    const sink = recordingSink(() => ({ action: 'decline' }));
    const { hub } = makeHub(sink);
    const args = { message: 'Sign in', url: 'https://example.com/oauth?x=1', elicitationId: 'el-1' };
    const result = await hub.callTool({ server: 'fixture', tool: 'ask_url', args, origin: { userId: 'U1' } });
    expect(JSON.parse(result.text)).toEqual({ action: 'decline' });
    expect(sink.asked[0]?.request).toEqual({ mode: 'url', ...args });
  });

  it('refuses a 2025 URL-mode elicitation without an elicitationId with -32602, asking nobody', async () => {
    const sink = recordingSink(() => ({ action: 'accept', content: {} }));
    const { hub } = makeHub(sink);
    const params = { mode: 'url', message: 'Sign in', url: 'https://example.com/oauth' };
    const result = await hub.callTool({
      server: 'fixture',
      tool: 'ask_params',
      args: { params },
      origin: { userId: 'U1' },
    });
    const { error } = JSON.parse(result.text) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('Invalid elicitation request: elicitationId: required in URL mode');
    expect(sink.asked).toHaveLength(0);
  });

  it('aborts the elicitation signal when the server gives up waiting (notifications/cancelled)', async () => {
    let aborted: Promise<void> | undefined;
    const sink = recordingSink(({ ctx }) => {
      aborted = new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      return aborted.then(() => ({ action: 'cancel' }) as const);
    });
    const { hub } = makeHub(sink);
    const result = await ask(hub, 'U1', askArgs(FLAT_SCHEMA, { timeoutMs: 50 }));
    await aborted;
    expect(sink.asked[0]?.ctx.signal.aborted).toBe(true);
    expect((JSON.parse(result.text) as { error: { code: number } }).error.code).toBe(-32001);
  });
});

describe('McpHub sessions', () => {
  it('keeps one session per user and attributes each elicitation to its own user', async () => {
    const { promise: firstHeld, resolve: releaseFirst } = deferred();
    const sink = recordingSink(async ({ ctx }) => {
      if (ctx.origin.userId === 'U1') await firstHeld;
      return { action: 'accept', content: { name: ctx.origin.userId } };
    });
    const { hub, opened } = makeHub(sink);
    const first = ask(hub, 'U1');
    const second = await ask(hub, 'U2');
    releaseFirst();
    expect(JSON.parse(second.text)).toEqual({ action: 'accept', content: { name: 'U2' } });
    expect(JSON.parse((await first).text)).toEqual({ action: 'accept', content: { name: 'U1' } });
    await ask(hub, 'U1');
    expect(opened()).toBe(2);
  });

  it('attributes an elicitation to the origin of the one call in flight: workspace, channel and thread', async () => {
    const sink = recordingSink(() => ({ action: 'decline' }));
    const { hub } = makeHub(sink);
    const origin = { userId: 'U1', teamId: 'T1', channelId: 'C42', threadTs: '1700000000.000100' };
    await hub.callTool({ server: 'fixture', tool: 'ask', args: askArgs(), origin });
    expect(sink.asked[0]?.ctx.origin).toEqual(origin);
  });

  it('ties each elicitation to the exact call that caused it, with several calls of one person in flight', async () => {
    const { promise: held, resolve: release } = deferred();
    const arrivals: (() => void)[] = [];
    const arrived = (n: number) => new Promise<void>((resolve) => (arrivals[n] = resolve));
    const [firstArrived, secondArrived] = [arrived(0), arrived(1)];
    const sink = recordingSink(async ({ ctx }) => {
      arrivals[sink.asked.length - 1]?.();
      await held;
      return { action: 'accept', content: { name: ctx.origin.channelId ?? '' } };
    });
    const { hub, opened } = makeHub(sink);
    const call = (channelId: string) =>
      hub.callTool({
        server: 'fixture',
        tool: 'ask',
        args: askArgs(),
        origin: { userId: 'U1', teamId: 'T1', channelId },
      });
    const first = call('C1');
    await firstArrived;
    const second = call('C2');
    await secondArrived;
    release();
    // Each call's own answer went back to it: the origin it was asked with was its own.
    expect(JSON.parse((await first).text)).toEqual({ action: 'accept', content: { name: 'C1' } });
    expect(JSON.parse((await second).text)).toEqual({ action: 'accept', content: { name: 'C2' } });
    expect(sink.asked.map((a) => a.ctx.origin)).toEqual([
      { userId: 'U1', teamId: 'T1', channelId: 'C1' },
      { userId: 'U1', teamId: 'T1', channelId: 'C2' },
    ]);
    expect(opened()).toBe(2);
  });

  it('closes a session after the idle delay and opens a new one on the next call', async () => {
    const time = handClock();
    const { hub, opened } = makeHub(
      recordingSink(() => ({ action: 'decline' })),
      { clock: time.clock, idleCloseMs: 1234 },
    );
    await hub.callTool({ server: 'fixture', tool: 'echo', args: { text: 'hi' }, origin: { userId: 'U1' } });
    expect(time.pending()).toContain(1234);
    time.fire(1234);
    const again = await hub.callTool({
      server: 'fixture',
      tool: 'echo',
      args: { text: 'again' },
      origin: { userId: 'U1' },
    });
    expect(again).toEqual({
      isError: false,
      text: 'again',
      callResult: { content: [{ type: 'text', text: 'again' }] },
    });
    expect(opened()).toBe(2);
  });

  it('lists the server tools', async () => {
    const { hub } = makeHub(recordingSink(() => ({ action: 'decline' })));
    const names = (await hub.listTools('fixture')).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['ask', 'ask_url', 'echo']));
    expect(hub.serverNames()).toEqual(['fixture']);
  });

  it('rejects an unknown server with code unknown_server', async () => {
    const { hub } = makeHub(recordingSink(() => ({ action: 'decline' })));
    const call = hub.callTool({ server: 'nope', tool: 'echo', args: {}, origin: { userId: 'U1' } });
    await expect(call).rejects.toBeInstanceOf(McpClientError);
    await expect(call).rejects.toMatchObject({ code: 'unknown_server', server: 'nope' });
  });

  it('reports a tool that fails inside as an isError result', async () => {
    const { hub } = makeHub(recordingSink(() => ({ action: 'decline' })));
    const result = await hub.callTool({
      server: 'fixture',
      tool: 'no_such_tool',
      args: {},
      origin: { userId: 'U1' },
    });
    expect(result.isError).toBe(true);
  });

  it('rejects with aborted when the caller aborts a call', async () => {
    const controller = new AbortController();
    const sink = recordingSink(() => {
      controller.abort();
      return { action: 'decline' };
    });
    const { hub } = makeHub(sink);
    const call = hub.callTool({
      server: 'fixture',
      tool: 'ask',
      args: askArgs(),
      origin: { userId: 'U1' },
      signal: controller.signal,
    });
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
  });

  it('rejects calls after close() with code closed', async () => {
    const { hub } = makeHub(recordingSink(() => ({ action: 'decline' })));
    await hub.close();
    await expect(hub.listTools('fixture')).rejects.toMatchObject({ code: 'closed' });
  });
});
