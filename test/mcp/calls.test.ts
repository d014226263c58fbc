// One call, one session: the questions a tool call causes are tied to it, live as long as it does, and
// never get more time than the call has left. Hand-run clock: no real waiting.
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub, type McpHubOptions } from '../../src/mcp/hub.js';
import type { ElicitationSink, ToolCall } from '../../src/mcp/types.js';
import { askArgs, handClock, inMemoryConnect, inMemorySpec, recordingSink, type Asked } from './support.js';
import { deferred } from '../support/deferred.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** elicitationTimeoutMs of inMemorySpec() plus the 30 s margin: a call's silence limit. */
const SILENCE_MS = 90_000;

function makeHub(sink: ElicitationSink, extra: Partial<McpHubOptions> = {}) {
  const time = handClock();
  const memory = inMemoryConnect();
  const hub = new McpHub({
    servers: [inMemorySpec()],
    sink,
    connect: memory.connect,
    clock: time.clock,
    ...extra,
  });
  hubs.push(hub);
  return { hub, time, opened: memory.opened };
}

/** A sink that waits until the question is withdrawn, then answers cancel (as the relay does). */
function waitingSink() {
  const { promise: first, resolve: asked } = deferred<Asked>();
  const sink = recordingSink(
    (entry) =>
      new Promise((resolve) => {
        asked(entry);
        entry.ctx.signal.addEventListener('abort', () => resolve({ action: 'cancel' }));
      }),
  );
  return { sink, first };
}

const ask = (hub: McpHub, extra: Partial<ToolCall> = {}) =>
  hub.callTool({ server: 'fixture', tool: 'ask', args: askArgs(), origin: { userId: 'U1' }, ...extra });

describe('the questions of a call end with the call', () => {
  it("withdraws them with reason 'call_ended' when the caller aborts the call", async () => {
    const { sink, first } = waitingSink();
    const { hub } = makeHub(sink);
    const controller = new AbortController();
    const call = ask(hub, { signal: controller.signal });
    const { ctx } = await first;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    expect(ctx.signal.reason).toBe('call_ended');
  });

  it("withdraws them with reason 'withdrawn' when the server cancels the request itself", async () => {
    const { sink, first } = waitingSink();
    const { hub } = makeHub(sink);
    const result = await ask(hub, { args: askArgs(undefined, { timeoutMs: 50 }) });
    expect((JSON.parse(result.text) as { error: { code: number } }).error.code).toBe(-32001);
    expect((await first).ctx.signal.reason).toBe('withdrawn');
  });

  it('ends a call and its question at the deadline the caller gave the call', async () => {
    const { sink, first } = waitingSink();
    const { hub, time } = makeHub(sink);
    const call = ask(hub, { timeoutMs: 20_000 });
    const { ctx } = await first;
    time.advance(20_000);
    await expect(call).rejects.toMatchObject({ code: 'timeout' });
    expect(ctx.signal.reason).toBe('call_ended');
  });
});

describe('timeouts that never waste a person’s time', () => {
  it("gives a question the server's elicitation timeout, or less when the call's deadline is closer", async () => {
    const sink = recordingSink(() => ({ action: 'decline' }));
    const { hub } = makeHub(sink);
    await ask(hub);
    await ask(hub, { timeoutMs: 20_000 });
    await ask(hub, { timeoutMs: 600_000 });
    expect(sink.asked.map((a) => a.ctx.timeoutMs)).toEqual([60_000, 20_000, 60_000]);
  });

  it('pauses the silence timeout while a question of the call is open', async () => {
    let answer: () => void = () => undefined;
    const { promise: open, resolve: asked } = deferred();
    const sink = recordingSink(() => {
      asked();
      return new Promise((resolve) => (answer = () => resolve({ action: 'decline' })));
    });
    const { hub, time } = makeHub(sink);
    const call = ask(hub);
    await open;
    expect(time.pending()).not.toContain(SILENCE_MS);
    time.advance(5 * SILENCE_MS);
    answer();
    expect(JSON.parse((await call).text)).toEqual({ action: 'decline' });
  });

  it('fails a call that stays silent past its limit with timeout', async () => {
    const { hub, time } = makeHub(recordingSink(() => ({ action: 'decline' })));
    const call = hub.callTool({ server: 'fixture', tool: 'hang', args: {}, origin: { userId: 'U1' } });
    await expect.poll(() => time.pending()).toContain(SILENCE_MS);
    time.advance(SILENCE_MS);
    await expect(call).rejects.toMatchObject({ code: 'timeout' });
  });

  it('fails a call that goes silent after the server withdrew its question', async () => {
    const { sink, first } = waitingSink();
    const { hub, time } = makeHub(sink);
    const args = { timeoutMs: 50 };
    const call = hub.callTool({ server: 'fixture', tool: 'ask_then_hang', args, origin: { userId: 'U1' } });
    const { ctx } = await first;
    await expect.poll((): unknown => ctx.signal.reason).toBe('withdrawn');
    await expect.poll(() => time.pending()).toContain(SILENCE_MS);
    time.advance(SILENCE_MS);
    await expect(call).rejects.toMatchObject({ code: 'timeout' });
  });
});

describe('sessions per person', () => {
  it('queues a call beyond maxSessionsPerPerson until a session comes free', async () => {
    const { sink, first } = waitingSink();
    const { hub, opened } = makeHub(sink, { maxSessionsPerPerson: 1 });
    const controller = new AbortController();
    const held = ask(hub, { signal: controller.signal });
    await first;
    const queued = hub.callTool({
      server: 'fixture',
      tool: 'echo',
      args: { text: 'next' },
      origin: { userId: 'U1' },
    });
    controller.abort();
    await expect(held).rejects.toMatchObject({ code: 'aborted' });
    expect(await queued).toEqual({
      isError: false,
      text: 'next',
      callResult: { content: [{ type: 'text', text: 'next' }] },
    });
    expect(opened()).toBe(1);
  });

  it('gives a session that just opened to the call that opened it, while another call waits for one', async () => {
    const { hub, opened } = makeHub(
      recordingSink(() => ({ action: 'cancel' })),
      { maxSessionsPerPerson: 1 },
    );
    const echo = (text: string) =>
      hub.callTool({ server: 'fixture', tool: 'echo', args: { text }, origin: { userId: 'U1' } });
    // The first call opens the person's only session; the second waits for it (the pool is at its max).
    const results = await Promise.all([echo('first'), echo('second')]);
    expect(results.map((r) => r.text)).toEqual(['first', 'second']);
    expect(opened()).toBe(1);
  });

  it('lets a queued call be aborted before it starts', async () => {
    const { sink, first } = waitingSink();
    const { hub } = makeHub(sink, { maxSessionsPerPerson: 1 });
    void ask(hub).catch(() => undefined);
    await first;
    const controller = new AbortController();
    const queued = hub.callTool({
      server: 'fixture',
      tool: 'echo',
      args: { text: 'never' },
      origin: { userId: 'U1' },
      signal: controller.signal,
    });
    controller.abort();
    await expect(queued).rejects.toMatchObject({ code: 'aborted' });
  });
});
