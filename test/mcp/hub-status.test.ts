// McpHub.status() and start(): what /mcp servers and /readyz show for each configured server, and the
// control link's reconnects with backoff (a hand-run clock: no real waiting).
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/mcp/backoff.js';
import { DROP_GRACE_MS } from '../../src/mcp/control.js';
import { McpHub, type McpHubOptions } from '../../src/mcp/hub.js';
import { describeError } from '../../src/mcp/status.js';
import type { McpTransport } from '../../src/mcp/types.js';
import {
  handClock,
  inMemoryConnect,
  inMemorySpec,
  onlyStatus,
  recordingSink,
  statusWatch,
} from './support.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

const T0 = 1_700_000_000_000;
/** The revision the fixture server (SDK 1.x, 2025 era) negotiates with the hub's 'auto' client. */
const V = '2025-11-25';

function makeHub(connect: McpHubOptions['connect'], extra: Partial<McpHubOptions> = {}) {
  const time = handClock(T0);
  const watch = statusWatch();
  const hub = new McpHub({
    servers: [inMemorySpec()],
    sink: recordingSink(() => ({ action: 'decline' })),
    connect,
    clock: time.clock,
    onStatus: watch.onStatus,
    ...extra,
  });
  hubs.push(hub);
  return { hub, time, watch };
}

const echo = (hub: McpHub, userId = 'U1') =>
  hub.callTool({ server: 'fixture', tool: 'echo', args: { text: 'hi' }, origin: { userId } });

const REFUSED = 'connect ECONNREFUSED 127.0.0.1:9';

/** A connect factory that fails while `down` is true and links to the fixture otherwise. */
function flakyConnect() {
  const memory = inMemoryConnect();
  const state = { down: true };
  const connect = () => (state.down ? Promise.reject(new Error(REFUSED)) : memory.connect());
  return { state, connect, memory };
}

describe('McpHub.status', () => {
  it('lists every configured server as idle before any connection', () => {
    const { hub } = makeHub(inMemoryConnect().connect, { servers: [inMemorySpec('a'), inMemorySpec('b')] });
    expect(hub.status()).toEqual([
      { server: 'a', state: 'idle' },
      { server: 'b', state: 'idle' },
    ]);
  });

  it('start() connects each server in the background; a server that hangs does not hold up the others', async () => {
    const memory = inMemoryConnect();
    const hanging = new Promise<McpTransport>(() => undefined);
    const { hub, watch } = makeHub((spec) => (spec.name === 'slow' ? hanging : memory.connect()), {
      servers: [inMemorySpec('slow'), inMemorySpec('fast')],
    });
    const fastUp = watch.next((s) => s.server === 'fast' && s.state === 'connected');
    hub.start();
    await fastUp;
    expect(hub.status()).toEqual([
      { server: 'slow', state: 'idle' },
      { server: 'fast', state: 'connected', protocolVersion: V },
    ]);
  });

  it('shows connected with the number of sessions open for people', async () => {
    const { hub } = makeHub(inMemoryConnect().connect);
    await echo(hub, 'U1');
    await echo(hub, 'U2');
    expect(hub.status()).toEqual([
      { server: 'fixture', state: 'connected', sessions: 2, protocolVersion: V },
    ]);
  });

  it('retries a failed connect with growing, jittered delays, then shows connected again', async () => {
    const flaky = flakyConnect();
    const { hub, time, watch } = makeHub(flaky.connect);
    let next = watch.next((s) => s.state === 'reconnecting');
    hub.start();
    const lastError = `could not build a transport for fixture: ${REFUSED}`;
    // The same failure as data, for /mcp servers to word: the bot's own message left out, the cause kept.
    const lastFailure = { code: 'connect_failed', cause: REFUSED };
    // Equal jitter with random() = 0.5: three quarters of 1 s, then of 2 s.
    expect(await next).toEqual({
      server: 'fixture',
      state: 'reconnecting',
      lastError,
      lastFailure,
      nextRetryAt: T0 + 750,
    });
    next = watch.next((s) => s.state === 'reconnecting');
    time.advance(750);
    expect((await next).nextRetryAt).toBe(T0 + 750 + 1500);
    flaky.state.down = false;
    next = watch.next((s) => s.state === 'connected');
    time.advance(1500);
    expect(await next).toEqual({
      server: 'fixture',
      state: 'connected',
      lastError,
      lastFailure,
      protocolVersion: V,
    });
  });

  it('gives up at once on a lasting failure (a command that does not exist): failed, no retry timer', async () => {
    const missing = Object.assign(new Error('spawn /nope ENOENT'), { code: 'ENOENT' });
    const { hub, time, watch } = makeHub(() => Promise.reject(missing));
    const failed = watch.next((s) => s.state === 'failed');
    hub.start();
    expect(await failed).toEqual({
      server: 'fixture',
      state: 'failed',
      lastError: 'could not build a transport for fixture: spawn /nope ENOENT',
      lastFailure: { code: 'connect_failed', cause: 'spawn /nope ENOENT' },
    });
    expect(time.pending()).toEqual([]);
  });

  it('reopens the control link with backoff when the server drops it', async () => {
    const memory = inMemoryConnect();
    const { hub, time, watch } = makeHub(memory.connect);
    let next = watch.next((s) => s.state === 'connected');
    hub.start();
    await next;
    next = watch.next((s) => s.state === 'reconnecting');
    await memory.serverSides[0]?.close();
    // Counted once the grace passed (a signal to the bot's process group would have stopped it by then).
    expect(watch.seen.map((s) => s.state)).toEqual(['connected']);
    time.advance(DROP_GRACE_MS);
    expect(await next).toMatchObject({
      lastError: 'connection closed unexpectedly',
      lastFailure: { code: 'connection_closed' },
      nextRetryAt: T0 + DROP_GRACE_MS + 750,
    });
    next = watch.next((s) => s.state === 'connected');
    time.advance(750);
    await next;
    expect(memory.opened()).toBe(2);
  });

  it("counts a person's dropped session as trouble until the next check finds the server fine", async () => {
    const memory = inMemoryConnect();
    const { hub, time, watch } = makeHub(memory.connect);
    let next = watch.next((s) => s.state === 'connected');
    hub.start();
    await next;
    await echo(hub);
    next = watch.next((s) => s.state === 'reconnecting');
    await memory.serverSides[1]?.close();
    time.advance(DROP_GRACE_MS);
    await next;
    next = watch.next((s) => s.state === 'connected');
    time.advance(750);
    expect(await next).toEqual({
      server: 'fixture',
      state: 'connected',
      lastError: 'connection closed unexpectedly',
      lastFailure: { code: 'connection_closed' },
      protocolVersion: V,
    });
  });

  it('pings the control link every heartbeat while connected', async () => {
    const memory = inMemoryConnect();
    const { hub, time, watch } = makeHub(memory.connect, { heartbeatMs: 30_000 });
    const up = watch.next((s) => s.state === 'connected');
    hub.start();
    await up;
    expect(time.pending()).toEqual([30_000]);
  });

  it('keeps connected when the hub closes an idle session itself', async () => {
    const { hub, time } = makeHub(inMemoryConnect().connect, { idleCloseMs: 1234 });
    await echo(hub);
    time.fire(1234);
    await hub.close();
    expect(onlyStatus(hub)).toEqual({ server: 'fixture', state: 'connected', protocolVersion: V });
  });

  it("once closing, counts the server's drops as the stop's doing: no status change, no reconnect; calls still run", async () => {
    const memory = inMemoryConnect();
    const { hub, time, watch } = makeHub(memory.connect);
    const up = watch.next((s) => s.state === 'connected');
    hub.start();
    await up;
    await echo(hub);
    hub.closing();
    // The control link's and the person's session, as a signal to the bot's process group ends them.
    for (const side of memory.serverSides) await side.close();
    expect((await echo(hub)).text).toBe('hi');
    expect(watch.seen.map((s) => s.state)).toEqual(['connected']);
    expect(onlyStatus(hub)).toEqual({
      server: 'fixture',
      state: 'connected',
      sessions: 1,
      protocolVersion: V,
    });
    // The new session's idle close (10 min) only: no retry, no heartbeat.
    expect(time.pending()).toEqual([600_000]);
  });

  it("counts a drop the stop follows within the grace as the stop's: a Ctrl-C seen by the server first", async () => {
    const memory = inMemoryConnect();
    const { hub, time, watch } = makeHub(memory.connect);
    const up = watch.next((s) => s.state === 'connected');
    hub.start();
    await up;
    await echo(hub);
    // The group's signal ends the servers' sides before the bot's own handler runs and calls closing().
    for (const side of memory.serverSides) await side.close();
    hub.closing();
    time.advance(DROP_GRACE_MS);
    expect(watch.seen.map((s) => s.state)).toEqual(['connected']);
    expect(onlyStatus(hub)).toEqual({ server: 'fixture', state: 'connected', protocolVersion: V });
  });

  it('stops retrying once closed', async () => {
    const { hub, time, watch } = makeHub(flakyConnect().connect);
    const next = watch.next((s) => s.state === 'reconnecting');
    hub.start();
    await next;
    await hub.close();
    expect(time.pending()).toEqual([]);
  });
});

describe('backoffDelay', () => {
  it('doubles from 1 s up to 5 minutes, jittered between half and all of it', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, 1))).toEqual([1000, 2000, 4000, 8000]);
    expect([0, 1, 2, 3].map((n) => backoffDelay(n, 0))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelay(30, 1)).toBe(300_000);
    expect(backoffDelay(5000, 0)).toBe(150_000);
  });
});

describe('describeError', () => {
  it('joins the cause chain on one line and caps it at 300 characters', () => {
    const error = new Error('outer', { cause: new Error('inner\nline') });
    expect(describeError(error)).toBe('outer: inner line');
    expect(describeError(new Error('x'.repeat(400)))).toHaveLength(300);
  });

  it('cuts a long line between characters, never inside an emoji', () => {
    // The cut falls where the 299th unit is the first half of 😀: the line keeps whole characters only.
    const line = describeError(new Error(`${'x'.repeat(298)}😀${'y'.repeat(50)}`));
    expect(line).toBe(`${'x'.repeat(298)}…`);
  });
});
