// McpHub.warm(): a person's session starts opening as soon as they ask for a run, and their call takes it, so
// the handshake overlaps what the run waits on before its call (the command's claim, its "Running…" note).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHub, type McpHubOptions } from '../../src/mcp/hub.js';
import { gatedConnect, handClock, inMemorySpec, onlyStatus, recordingSink } from './support.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

const IDLE_CLOSE_MS = 1234;

function hubWith(extra: Partial<McpHubOptions> = {}) {
  const gated = gatedConnect();
  const time = handClock();
  const hub = new McpHub({
    servers: [inMemorySpec()],
    sink: recordingSink(() => ({ action: 'decline' })),
    connect: gated.connect,
    clock: time.clock,
    idleCloseMs: IDLE_CLOSE_MS,
    ...extra,
  });
  hubs.push(hub);
  return { hub, gated, time };
}

const echo = (hub: McpHub, userId: string) =>
  hub.callTool({ server: 'fixture', tool: 'echo', args: { text: userId }, origin: { userId } });

/** Resolves once every microtask queued so far (and those they queue) has run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves once the hub reports `n` open sessions to the fixture (0: no count). */
const openSessions = (hub: McpHub, n: number) =>
  vi.waitFor(() => expect(onlyStatus(hub)?.sessions).toBe(n === 0 ? undefined : n));

/** U1's warm-up, held at its connect, and U1's call made while it still opens. */
async function callWhileWarming() {
  const { hub, gated } = hubWith();
  hub.warm('fixture', { userId: 'U1' });
  await gated.calledTimes(1);
  const call = echo(hub, 'U1');
  await settled();
  return { gated, call };
}

describe('warming a person’s session', () => {
  it('a call made while the warm-up still opens takes its session instead of opening another', async () => {
    const { gated, call } = await callWhileWarming();
    expect(gated.called()).toBe(1);
    gated.release(0);
    expect((await call).text).toBe('U1');
    expect(gated.called()).toBe(1);
  });

  it('a warmed session waits idle for the call, and closes after idleCloseMs when none comes', async () => {
    const { hub, gated, time } = hubWith();
    gated.release(0);
    gated.release(1);
    hub.warm('fixture', { userId: 'U1' });
    await openSessions(hub, 1);
    expect(time.pending()).toEqual([IDLE_CLOSE_MS]);
    expect((await echo(hub, 'U1')).text).toBe('U1');
    expect(gated.called()).toBe(1);
    time.fire(IDLE_CLOSE_MS);
    await openSessions(hub, 0);
    hub.warm('fixture', { userId: 'U1' });
    await openSessions(hub, 1);
    time.fire(IDLE_CLOSE_MS);
    await openSessions(hub, 0);
    expect(gated.called()).toBe(2);
  });

  it('opens nothing for a person with a free session, or one already opening, or for another server', async () => {
    const { hub, gated } = hubWith();
    gated.release(0);
    await echo(hub, 'U1');
    hub.warm('fixture', { userId: 'U1' });
    hub.warm('elsewhere', { userId: 'U1' });
    hub.warm('fixture', { userId: 'U2' });
    hub.warm('fixture', { userId: 'U2' });
    await gated.calledTimes(2);
    await settled();
    expect(gated.called()).toBe(2);
  });

  // A failed open also has the hub check the server at once (its control link: another connect).
  it('a call made after a warm-up failed opens its own session', async () => {
    const { hub, gated } = hubWith();
    hub.warm('fixture', { userId: 'U1' });
    await gated.calledTimes(1);
    gated.fail(0);
    await gated.calledTimes(2);
    for (const n of [1, 2]) gated.release(n);
    expect((await echo(hub, 'U1')).text).toBe('U1');
  });

  it('the call that took a warm-up meets its failure, as it would its own open', async () => {
    const { gated, call } = await callWhileWarming();
    gated.fail(0);
    await expect(call).rejects.toMatchObject({
      code: 'connect_failed',
      cause: { message: 'connect 0 refused' },
    });
  });

  it('does not warm a server each person signs in to: a sign-in prompt comes from their call', async () => {
    const auth = { forSession: () => Promise.resolve(undefined), personal: () => true };
    const { hub, gated } = hubWith({ auth });
    hub.warm('fixture', { userId: 'U1' });
    await settled();
    expect(gated.called()).toBe(0);
  });
});
