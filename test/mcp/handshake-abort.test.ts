// A handshake under way ends at once, not at its bound, when nobody needs it any more: closing the hub ends every
// one (the control link's and the people's: each stdio child killed, each HTTP request aborted, before close()
// resolves), and a run cancelled while its session opens ends the handshake only it was waiting for (its own, or
// the one warmed for it that it took), never another run's. Neither is noted as the server's failure.
import { afterEach, describe, expect, it } from 'vitest';
import { handshakeLimitMs } from '../../src/mcp/handshake.js';
import { serveHeld } from '../fixtures/held-http.js';
import { silentChildren } from '../fixtures/silent-server.js';
import { expectGone, heldSpec, oneSessionHub, pidCall, silentSpec } from './held-handshakes.js';
import { onlyStatus } from './support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function silentHub() {
  const children = await silentChildren();
  cleanups.push(() => children.close());
  const spec = silentSpec(children.port, 10_000);
  return { children, spec, ...oneSessionHub(spec, cleanups) };
}

async function heldHub() {
  const endpoint = await serveHeld();
  cleanups.push(() => endpoint.close());
  return { endpoint, ...oneSessionHub(heldSpec(endpoint.url, 'http'), cleanups) };
}

describe('closing the hub while handshakes are under way', () => {
  it('kills the stdio child of every handshake (the control link’s and a run’s) before close() resolves', async () => {
    const { hub, children, watch } = await silentHub();
    hub.start();
    const control = await children.nextRead('server/discover');
    const run = hub.callTool(pidCall('silent', 'U1'));
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
    const run = hub.callTool(pidCall('held', 'U1'));
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
    const cancelled = hub.callTool(pidCall('silent', 'U1', cancel.signal));
    const own = await children.nextRead('server/discover');
    const other = hub.callTool(pidCall('silent', 'U2'));
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
    await hub.callTool(pidCall('held', 'U1'));

    endpoint.holding = true;
    const cancel = new AbortController();
    const cancelled = hub.callTool(pidCall('held', 'U2', cancel.signal));
    const initialize = await endpoint.nextHeld();
    expect(initialize.method).toBe('initialize');
    const aborted = expect(cancelled).rejects.toMatchObject({ code: 'aborted' });
    cancel.abort();
    await aborted;

    void hub.callTool(pidCall('held', 'U3')).catch(() => undefined);
    expect((await endpoint.nextHeld()).method).toBe('initialize');
  });

  it('aborts the handshake warmed for it that it took', async () => {
    const { hub, endpoint } = await heldHub();
    hub.warm('held', { userId: 'U1' });
    const warming = await endpoint.nextHeld();
    const cancel = new AbortController();
    const run = hub.callTool(pidCall('held', 'U1', cancel.signal));

    const aborted = expect(run).rejects.toMatchObject({ code: 'aborted', server: 'held' });
    cancel.abort();
    await warming.closed;
    await aborted;
    expect(onlyStatus(hub)?.lastFailure).toBeUndefined();
  });
});
