// A server that sends a second `elicitation/create` under the JSON-RPC id of one the bot has not answered yet
// (the spec forbids reusing an id within a session): the person is asked once, the duplicate is refused with
// -32600, the first request gets exactly one answer, and a cancel of that id still reaches the first question.
import { afterEach, describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { McpHub } from '../../src/mcp/hub.js';
import type { ElicitationContext } from '../../src/mcp/types.js';
import type { Outcome } from '../../src/relay/types.js';
import { deferred } from '../support/deferred.js';
import { drivenServer } from './driven-server.js';
import { inMemorySpec } from './support.js';

const SCHEMA = { type: 'object', properties: { name: { type: 'string' } } };
const elicit = (id: number, message: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'elicitation/create',
  params: { message, requestedSchema: SCHEMA },
});

/** A sink that holds each question until the test answers it, and records each with its context. */
function heldSink(onAsked: () => void) {
  const asked: { message: string; ctx: ElicitationContext; answer: (o: Outcome) => void }[] = [];
  return {
    asked,
    sink: {
      ask: (request: { message: string }, ctx: ElicitationContext) =>
        new Promise<Outcome>((answer) => {
          asked.push({ message: request.message, ctx, answer });
          onAsked();
        }),
    },
  };
}

let hub: McpHub | undefined;

/**
 * A tool call on a driven server (`reuser`) that returns once `finish` resolves, its questions held by the test;
 * `asked(n)` resolves once the n-th question reached the person.
 */
function reuserCall() {
  const finish = deferred<Record<string, unknown>>();
  let wake = (): void => undefined;
  const server = drivenServer(finish.promise);
  const held = heldSink(() => wake());
  hub = new McpHub({ servers: [inMemorySpec('reuser')], sink: held.sink, connect: server.connect });
  const call = hub.callTool({ server: 'reuser', tool: 't', args: {}, origin: { userId: 'U1' } });
  const asked = (n: number) =>
    new Promise<void>((resolve) => (wake = () => held.asked.length >= n && resolve()));
  return { finish, server, held, call, asked };
}

afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

describe('an elicitation/create under an id the bot has not answered yet', () => {
  it('is refused with -32600, asking nobody; the first is answered once and its id still cancels it', async () => {
    const { finish, server, held, call, asked } = reuserCall();

    const first = asked(1);
    await server.send(elicit(7, 'first'));
    await first;
    // Whichever comes first: the bot's reply to the duplicate, or a second question to the person.
    const second = asked(2);
    await server.send(elicit(7, 'second'));
    await Promise.race([server.when(() => (server.replies.get(7) ?? []).length > 0), second]);

    expect(held.asked.map((q) => q.message)).toEqual(['first']);
    expect(server.replies.get(7)?.map((r) => r.error?.code)).toEqual([-32600]);

    const signal = held.asked[0]?.ctx.signal;
    const withdrawn = new Promise((resolve) =>
      signal?.addEventListener('abort', () => resolve(signal.reason)),
    );
    await server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    expect(await withdrawn).toBe('withdrawn');
    finish.resolve({ content: [{ type: 'text', text: 'done' }] });
    expect((await call).text).toBe('done');
    expect(server.replies.get(7)).toHaveLength(1);
  });

  it('answers a request that reuses the id of one already answered, as a new question', async () => {
    const { finish, server, held, call, asked } = reuserCall();

    for (const [n, message] of [
      [1, 'first'],
      [2, 'again'],
    ] as const) {
      const question = asked(n);
      await server.send(elicit(7, message));
      await question;
      held.asked[n - 1]?.answer({ action: 'decline' });
      await server.when(() => (server.replies.get(7) ?? []).length === n);
    }

    expect(server.replies.get(7)?.map((r) => r.result)).toEqual([
      { action: 'decline' },
      { action: 'decline' },
    ]);
    finish.resolve({ content: [{ type: 'text', text: 'done' }] });
    await call;
  });
});
