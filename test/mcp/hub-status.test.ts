// McpHub.status() and probe(): what /mcp servers and /readyz show for each configured server.
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub, type McpHubOptions } from '../../src/mcp/hub.js';
import { describeError } from '../../src/mcp/status.js';
import { McpClientError } from '../../src/mcp/types.js';
import { inMemoryConnect, inMemorySpec, recordingSink } from './support.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

function makeHub(connect: McpHubOptions['connect'], servers = [inMemorySpec()]): McpHub {
  const hub = new McpHub({ servers, sink: recordingSink(() => ({ action: 'decline' })), connect });
  hubs.push(hub);
  return hub;
}

const echo = (hub: McpHub, userId = 'U1') =>
  hub.callTool({ server: 'fixture', tool: 'echo', args: { text: 'hi' }, origin: { userId } });

/** A connect factory that fails while `down` is true and links to the fixture otherwise. */
function flakyConnect() {
  const memory = inMemoryConnect();
  const state = { down: true };
  const connect = () =>
    state.down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9')) : memory.connect();
  return { state, connect, memory };
}

describe('McpHub.status', () => {
  it('lists every configured server as idle before any connection', () => {
    const hub = makeHub(inMemoryConnect().connect, [inMemorySpec('a'), inMemorySpec('b')]);
    expect(hub.status()).toEqual([
      { server: 'a', state: 'idle' },
      { server: 'b', state: 'idle' },
    ]);
  });

  it('shows connected with the number of open sessions', async () => {
    const hub = makeHub(inMemoryConnect().connect);
    await echo(hub, 'U1');
    await echo(hub, 'U2');
    expect(hub.status()).toEqual([{ server: 'fixture', state: 'connected', detail: '2 open sessions' }]);
  });

  it('shows failed with the connect error and its cause, then connected again after a recovery', async () => {
    const flaky = flakyConnect();
    const hub = makeHub(flaky.connect);
    await expect(echo(hub)).rejects.toMatchObject({ code: 'connect_failed' });
    const lastError = 'could not build a transport for fixture: connect ECONNREFUSED 127.0.0.1:9';
    expect(hub.status()).toEqual([{ server: 'fixture', state: 'failed', lastError }]);
    flaky.state.down = false;
    await echo(hub);
    expect(hub.status()).toEqual([
      { server: 'fixture', state: 'connected', detail: '1 open session', lastError },
    ]);
  });

  it('shows failed when the only session is dropped by the server', async () => {
    const memory = inMemoryConnect();
    const hub = makeHub(memory.connect);
    await echo(hub);
    await memory.serverSides[0]?.close();
    expect(hub.status()).toEqual([
      { server: 'fixture', state: 'failed', lastError: 'connection closed unexpectedly' },
    ]);
  });

  it('keeps connected when the hub closes an idle session itself', async () => {
    const timers: (() => void)[] = [];
    const hub = new McpHub({
      servers: [inMemorySpec()],
      sink: recordingSink(() => ({ action: 'decline' })),
      connect: inMemoryConnect().connect,
      schedule: (fn) => {
        timers.push(fn);
        return () => undefined;
      },
    });
    hubs.push(hub);
    await echo(hub);
    timers.forEach((fire) => fire());
    await hub.close();
    expect(hub.status()).toEqual([{ server: 'fixture', state: 'connected' }]);
  });
});

describe('McpHub.probe', () => {
  it('connects, closes again, and reports connected', async () => {
    const memory = inMemoryConnect();
    const hub = makeHub(memory.connect);
    expect(await hub.probe('fixture')).toEqual({ server: 'fixture', state: 'connected' });
    expect(memory.opened()).toBe(1);
  });

  it('reports a server that is down as failed without rejecting', async () => {
    const hub = makeHub(flakyConnect().connect);
    expect(await hub.probe('fixture')).toMatchObject({ server: 'fixture', state: 'failed' });
  });

  it('rejects an unknown server with code unknown_server', async () => {
    const hub = makeHub(inMemoryConnect().connect);
    await expect(hub.probe('nope')).rejects.toBeInstanceOf(McpClientError);
  });
});

describe('describeError', () => {
  it('joins the cause chain on one line and caps it at 300 characters', () => {
    const error = new Error('outer', { cause: new Error('inner\nline') });
    expect(describeError(error)).toBe('outer: inner line');
    expect(describeError(new Error('x'.repeat(400)))).toHaveLength(300);
  });
});
