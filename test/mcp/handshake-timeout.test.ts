// A server that takes the connection but never answers its handshake (a stdio child that reads and stays silent,
// an HTTP endpoint holding the POST): the open fails 'handshake_timeout' once the bound passed on the hub's clock
// (a hand-run clock: no real waiting), ending what it started, and the server is met as any server the hub cannot
// reach: the person's run answers with the error, the control link backs off and retries, the pool place is free.
// The bound is the server's `startupTimeout` (default 30 s, for a package runner's download), plus the era probe's
// 10 s when probing, and the error names it; one bound covers a Streamable HTTP URL's attempt and its SSE fallback.
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_STARTUP_TIMEOUT_MS,
  handshakeLimitMs,
  openFailure,
  PROBE_TIMEOUT_MS,
} from '../../src/mcp/handshake.js';
import type { McpServerSpec, ServerStatus } from '../../src/mcp/types.js';
import { mcpToolRunner } from '../../src/relay/sources/mcp.js';
import { serveHeld } from '../fixtures/held-http.js';
import { silentChildren } from '../fixtures/silent-server.js';
import { expectGone, heldSpec, oneSessionHub, pidCall, silentSpec } from './held-handshakes.js';
import type { handClock } from './support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A hub of `spec` (held-handshakes.ts), closed after the test. */
const makeHub = (spec: McpServerSpec) => oneSessionHub(spec, cleanups);

/** The limit the first two tests give their server, ms: small, so that each step's time is its own. */
const STARTUP_MS = 10_000;

/** Runs the hand clock on to the control link's next attempt. */
function untilRetry(time: ReturnType<typeof handClock>, status: ServerStatus): void {
  time.advance((status.nextRetryAt ?? 0) - time.clock.now());
}

describe('a server that never answers its handshake', () => {
  it('over stdio: the run answers with the error, the child is killed, the control link retries, the place is free', async () => {
    const children = await silentChildren();
    cleanups.push(() => children.close());
    const spec = silentSpec(children.port, STARTUP_MS);
    const { hub, time, watch } = makeHub(spec);
    const runner = mcpToolRunner(hub);

    const run = runner.callTool(pidCall('silent', 'U1'));
    // No era verdict yet: the SDK probes on a sibling process, whose silence over stdio means a 2025 server.
    const probed = await children.nextRead('server/discover');
    time.advance(handshakeLimitMs(spec, true));
    expect(await run).toEqual({ isError: true, text: 'silent did not answer the MCP handshake within 20 s' });
    expectGone(probed);

    // The person's failure had the control link check the server: it meets the same silence and backs off.
    const controlProbed = await children.nextRead('server/discover');
    const reconnecting = watch.next((s) => s.state === 'reconnecting');
    time.advance(handshakeLimitMs(spec, true));
    const down = await reconnecting;
    expect(down.lastFailure).toEqual({ code: 'handshake_timeout' });
    expect(down.nextRetryAt).toBeGreaterThan(time.clock.now());
    expectGone(controlProbed);

    children.serving = true;
    const connected = watch.next((s) => s.state === 'connected');
    untilRetry(time, down);
    await connected;
    const second = await runner.callTool(pidCall('silent', 'U1'));
    expect(second.isError).toBe(false);
    expect(children.pids).toContain(Number(second.text));

    // With the era known (2025), a new session's child is asked `initialize` at once, which the SDK alone waits
    // 60 s for: the bound is the startup timeout.
    children.serving = false;
    const another = runner.callTool(pidCall('silent', 'U2'));
    const initializing = await children.nextRead('initialize');
    time.advance(STARTUP_MS);
    expect(await another).toEqual({
      isError: true,
      text: 'silent did not answer the MCP handshake within 10 s',
    });
    expectGone(initializing);
  });

  it('over HTTP: the held initialize is aborted, the control link retries, the place is free', async () => {
    const endpoint = await serveHeld();
    cleanups.push(() => endpoint.close());
    const spec = heldSpec(endpoint.url, 'http', STARTUP_MS);
    const { hub, time, watch } = makeHub(spec);
    endpoint.holding = false;
    await hub.callTool(pidCall('held', 'U1'));

    // U2's session starts from U1's era verdict: straight to `initialize`, which the SDK alone waits 60 s for.
    endpoint.holding = true;
    const run = hub.callTool(pidCall('held', 'U2'));
    const initialize = await endpoint.nextHeld();
    expect(initialize.method).toBe('initialize');
    time.advance(STARTUP_MS);
    await expect(run).rejects.toMatchObject({
      code: 'handshake_timeout',
      server: 'held',
      message: 'held did not answer the MCP handshake within 10 s',
    });
    await initialize.closed;

    // The failure had the control link check the server (probing afresh: a failed connect drops the verdict).
    const probe = await endpoint.nextHeld();
    expect(probe.method).toBe('server/discover');
    const reconnecting = watch.next((s) => s.state === 'reconnecting');
    time.advance(handshakeLimitMs(spec, true));
    const down = await reconnecting;
    expect(down.lastFailure).toEqual({ code: 'handshake_timeout' });
    await probe.closed;

    endpoint.holding = false;
    const connected = watch.next((s) => s.state === 'connected');
    untilRetry(time, down);
    await connected;
    expect((await hub.callTool(pidCall('held', 'U2'))).isError).toBe(false);
  });

  it('gives a URL refusing Streamable HTTP and silent on the SSE fallback one bound for both, not one each', async () => {
    const endpoint = await serveHeld();
    cleanups.push(() => endpoint.close());
    const spec = heldSpec(endpoint.url, 'http', STARTUP_MS);
    const { hub, time } = makeHub(spec);
    const run = hub.callTool(pidCall('held', 'U1'));

    // The POSTs take most of the bound before the server turns them away (405: an old HTTP+SSE server).
    const probe = await endpoint.nextHeld();
    expect(probe.method).toBe('server/discover');
    const beforeRefusal = handshakeLimitMs(spec, true) - 1_000;
    time.advance(beforeRefusal);
    probe.refuse(405);
    const initialize = await endpoint.nextHeld();
    expect(initialize.method).toBe('initialize');
    initialize.refuse(405);

    // The fallback's SSE stream is held: what is left of the one bound is all it gets.
    const stream = await endpoint.nextHeld();
    expect(stream.method).toBe('');
    time.advance(handshakeLimitMs(spec, true) - beforeRefusal);
    await expect(run).rejects.toMatchObject({
      code: 'handshake_timeout',
      message: 'held did not answer the MCP handshake within 20 s',
    });
    await stream.closed;
  });

  it('over legacy SSE: a stream held open without its endpoint event fails at the bound, the stream closed', async () => {
    const endpoint = await serveHeld();
    cleanups.push(() => endpoint.close());
    const spec = heldSpec(endpoint.url, 'sse', STARTUP_MS);
    const { hub, time } = makeHub(spec);
    const run = hub.callTool(pidCall('held', 'U1'));
    const stream = await endpoint.nextHeld();
    expect(stream.method).toBe('');
    const failed = expect(run).rejects.toMatchObject({ code: 'handshake_timeout' });
    time.advance(handshakeLimitMs(spec, true));
    await failed;
    await stream.closed;
  });

  it('reports the SDK giving up a handshake request (its own timer) as the handshake timing out', () => {
    const probe = new SdkError(
      SdkErrorCode.RequestTimeout,
      'Version negotiation probe timed out after 640000ms',
    );
    expect(openFailure(probe, { spec: { name: 'held' } })).toMatchObject({
      code: 'handshake_timeout',
      message: 'held did not answer the MCP handshake within 40 s',
      cause: probe,
    });
  });

  it('gives a server without startupTimeout 30 s, a package runner’s download, and names that limit', async () => {
    const children = await silentChildren();
    cleanups.push(() => children.close());
    const spec = silentSpec(children.port);
    const { hub, time } = makeHub(spec);
    const runner = mcpToolRunner(hub);
    children.serving = true;
    expect((await runner.callTool(pidCall('silent', 'U1'))).isError).toBe(false);

    children.serving = false;
    const run = runner.callTool(pidCall('silent', 'U2'));
    const initializing = await children.nextRead('initialize');
    time.advance(PROBE_TIMEOUT_MS);
    time.advance(DEFAULT_STARTUP_TIMEOUT_MS - PROBE_TIMEOUT_MS);
    expect(await run).toEqual({ isError: true, text: 'silent did not answer the MCP handshake within 30 s' });
    expectGone(initializing);
  });
});
