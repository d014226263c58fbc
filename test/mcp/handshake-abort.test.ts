// A handshake under way ends at once, not at its bound, when nobody needs it any more: closing the hub ends every
// one (the control link's and the people's: each stdio child killed, each HTTP request aborted, before close()
// resolves), and a run cancelled while its session opens ends the handshake only it was waiting for (its own, or
// the one warmed for it that it took), never another run's. Neither is noted as the server's failure.
import { afterEach, describe, expect, it } from 'vitest';
import { handshakeLimitMs } from '../../src/mcp/handshake.js';
import { McpHub } from '../../src/mcp/hub.js';
import type { McpServerSpec, ToolCall } from '../../src/mcp/types.js';
import { serveHeld } from '../fixtures/held-http.js';
import { silentChildren } from '../fixtures/silent-server.js';
import { compiled } from '../setup/compiled.js';
import { handClock, onlyStatus, recordingSink, statusWatch } from './support.js';

const silentServer = compiled('test/fixtures/silent-server.ts');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function makeHub(spec: McpServerSpec) {
  const time = handClock();
  const watch = statusWatch();
  // One session per person: a run takes the session warmed for its person rather than opening its own.
  const hub = new McpHub({
    servers: [spec],
    sink: recordingSink(() => ({ action: 'decline' })),
    clock: time.clock,
    onStatus: watch.onStatus,
    maxSessionsPerPerson: 1,
  });
  cleanups.push(() => hub.close());
  return { hub, time, watch };
}

async function silentHub() {
  const children = await silentChildren();
  cleanups.push(() => children.close());
  const spec: McpServerSpec = {
    name: 'silent',
    transport: {
      kind: 'stdio',
      command: process.execPath,
      args: [silentServer, String(children.port)],
      env: {},
    },
    elicitationTimeoutMs: 60_000,
    startupTimeoutMs: 10_000,
  };
  return { children, spec, ...makeHub(spec) };
}

async function heldHub() {
  const endpoint = await serveHeld();
  cleanups.push(() => endpoint.close());
  const spec: McpServerSpec = {
    name: 'held',
    transport: { kind: 'http', url: endpoint.url, headers: {} },
    elicitationTimeoutMs: 60_000,
  };
  return { endpoint, ...makeHub(spec) };
}

const call = (server: string, userId: string, signal?: AbortSignal): ToolCall => ({
  server,
  tool: 'pid',
  args: {},
  origin: { userId },
  ...(signal === undefined ? {} : { signal }),
});

/** The process `pid` has exited and been reaped. */
function expectGone(pid: number): void {
  expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
}

describe('closing the hub while handshakes are under way', () => {
  it('kills the stdio child of every handshake (the control link’s and a run’s) before close() resolves', async () => {
    const { hub, children, watch } = await silentHub();
    hub.start();
    const control = await children.nextRead('server/discover');
    const run = hub.callTool(call('silent', 'U1'));
    const person = await children.nextRead('server/discover');

    const closedRun = expect(run).rejects.toMatchObject({ code: 'closed', server: 'silent' });
    await hub.close();
    expectGone(control);
    expectGone(person);
    await closedRun;
    expect(watch.seen).toEqual([]);
    expect(onlyStatus(hub)?.lastFailure).toBeUndefined();
  });

  it('aborts a held HTTP handshake before close() resolves', async () => {
    const { hub, endpoint } = await heldHub();
    const run = hub.callTool(call('held', 'U1'));
    const probe = await endpoint.nextHeld();
    expect(probe.method).toBe('server/discover');

    const closedRun = expect(run).rejects.toMatchObject({ code: 'closed', server: 'held' });
    await hub.close();
    await probe.closed;
    await closedRun;
    expect(onlyStatus(hub)?.lastFailure).toBeUndefined();
  });
});

describe('a run cancelled while its session opens', () => {
  it('kills its own handshake’s child at once, and leaves the handshake of another run to its bound', async () => {
    const { hub, children, spec, time } = await silentHub();
    const cancel = new AbortController();
    const cancelled = hub.callTool(call('silent', 'U1', cancel.signal));
    const own = await children.nextRead('server/discover');
    const other = hub.callTool(call('silent', 'U2'));
    const others = await children.nextRead('server/discover');

    cancel.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'aborted', server: 'silent' });
    expectGone(own);
    expect(process.kill(others, 0)).toBe(true);
    expect(onlyStatus(hub)?.lastFailure).toBeUndefined();

    time.advance(handshakeLimitMs(spec, true));
    await expect(other).rejects.toMatchObject({ code: 'handshake_timeout' });
    expectGone(others);
  });

  it('keeps the server’s era verdict: the next session does not probe again', async () => {
    const { hub, endpoint } = await heldHub();
    endpoint.holding = false;
    await hub.callTool(call('held', 'U1'));

    endpoint.holding = true;
    const cancel = new AbortController();
    const cancelled = hub.callTool(call('held', 'U2', cancel.signal));
    const initialize = await endpoint.nextHeld();
    expect(initialize.method).toBe('initialize');
    const aborted = expect(cancelled).rejects.toMatchObject({ code: 'aborted' });
    cancel.abort();
    await aborted;

    void hub.callTool(call('held', 'U3')).catch(() => undefined);
    expect((await endpoint.nextHeld()).method).toBe('initialize');
  });

  it('aborts the handshake warmed for it that it took', async () => {
    const { hub, endpoint } = await heldHub();
    hub.warm('held', { userId: 'U1' });
    const warming = await endpoint.nextHeld();
    const cancel = new AbortController();
    const run = hub.callTool(call('held', 'U1', cancel.signal));

    const aborted = expect(run).rejects.toMatchObject({ code: 'aborted', server: 'held' });
    cancel.abort();
    await warming.closed;
    await aborted;
    expect(onlyStatus(hub)?.lastFailure).toBeUndefined();
  });
});
