// The hub opens at most `maxSessionStarts` sessions to one server at once (src/mcp/starts.ts): a crowd of
// first commands queues its session starts, every start then runs, and a start that fails frees its place.
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import { SessionStarts } from '../../src/mcp/starts.js';
import type { McpTransport } from '../../src/mcp/types.js';
import { gatedConnect, inMemorySpec, recordingSink } from './support.js';
import { deferred } from '../support/deferred.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** Resolves once every microtask queued so far (and those they queue) has run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

function hubWith(connect: () => Promise<McpTransport>, maxSessionStarts: number) {
  const sink = recordingSink(() => ({ action: 'decline' }));
  const hub = new McpHub({ servers: [inMemorySpec()], sink, connect, maxSessionStarts });
  hubs.push(hub);
  return hub;
}

const echo = (hub: McpHub, userId: string) =>
  hub.callTool({ server: 'fixture', tool: 'echo', args: { text: userId }, origin: { userId } });

describe('session starts per server', () => {
  it('opens at most maxSessionStarts sessions at once and then runs every queued start', async () => {
    const gated = gatedConnect();
    const hub = hubWith(gated.connect, 2);
    const people = ['U1', 'U2', 'U3', 'U4', 'U5', 'U6'];
    const calls = people.map((userId) => echo(hub, userId));
    await gated.calledTimes(2);
    await settled();
    // Without the limit every person's connect would have been asked for by now.
    expect(gated.called()).toBe(2);
    gated.release(0);
    await gated.calledTimes(3);
    await settled();
    expect(gated.called()).toBe(3);
    for (let n = 1; n < people.length; n++) gated.release(n);
    const texts = (await Promise.all(calls)).map((result) => result.text);
    expect(texts).toEqual(people);
    expect(gated.called()).toBe(people.length);
  });

  it('a start that fails frees its place: the starts queued behind it still open', async () => {
    const gated = gatedConnect();
    const hub = hubWith(gated.connect, 1);
    const first = echo(hub, 'U1');
    const others = ['U2', 'U3'].map((userId) => echo(hub, userId));
    await gated.calledTimes(1);
    gated.fail(0);
    await expect(first).rejects.toMatchObject({ code: 'connect_failed' });
    gated.release(1);
    gated.release(2);
    expect((await Promise.all(others)).map((result) => result.text)).toEqual(['U2', 'U3']);
  });
});

describe('SessionStarts', () => {
  it('runs queued starts first come first served', async () => {
    const starts = new SessionStarts(1);
    const order: string[] = [];
    const first = deferred<void>();
    const running = starts.run(async () => {
      order.push('a');
      await first.promise;
    });
    const queued = ['b', 'c'].map((name) => starts.run(() => Promise.resolve(void order.push(name))));
    await settled();
    expect(starts.waiting).toBe(2);
    first.resolve();
    await Promise.all([running, ...queued]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(starts.waiting).toBe(0);
  });

  it('refuses a limit below one', () => {
    expect(() => new SessionStarts(0)).toThrow(RangeError);
  });
});
