// What the handshake tests (handshake-timeout, handshake-abort) run against: a server that never answers its
// handshake, as a silent stdio child (fixtures/silent-server.ts) or an HTTP endpoint holding its requests
// (fixtures/held-http.ts), and a hub for it on a hand-run clock with one session per person.
import { expect } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import type { McpServerSpec, ToolCall } from '../../src/mcp/types.js';
import { compiled } from '../setup/compiled.js';
import { handClock, recordingSink, statusWatch } from './support.js';

const silentServer = compiled('test/fixtures/silent-server.ts');

/**
 * A hub of `spec` on a hand clock, one session per person (a run takes the session warmed for its person, and a
 * second run gets one only if a failed open gave its place back); its close goes onto `cleanups`.
 */
export function oneSessionHub(spec: McpServerSpec, cleanups: (() => Promise<void>)[]) {
  const time = handClock();
  const watch = statusWatch();
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

/** The silent stdio server reporting to `port`, with `startupTimeoutMs` when given. */
export function silentSpec(port: number, startupTimeoutMs?: number): McpServerSpec {
  return {
    name: 'silent',
    transport: { kind: 'stdio', command: process.execPath, args: [silentServer, String(port)], env: {} },
    elicitationTimeoutMs: 60_000,
    ...(startupTimeoutMs === undefined ? {} : { startupTimeoutMs }),
  };
}

/** The held endpoint at `url` over `kind`, with `startupTimeoutMs` when given. */
export function heldSpec(url: string, kind: 'http' | 'sse', startupTimeoutMs?: number): McpServerSpec {
  return {
    name: 'held',
    transport: { kind, url, headers: {} },
    elicitationTimeoutMs: 60_000,
    ...(startupTimeoutMs === undefined ? {} : { startupTimeoutMs }),
  };
}

/** A call of the fixtures' `pid` tool as `userId`, cancelled by `signal` when given. */
export const pidCall = (server: string, userId: string, signal?: AbortSignal): ToolCall => ({
  server,
  tool: 'pid',
  args: {},
  origin: { userId },
  ...(signal === undefined ? {} : { signal }),
});

/** The process `pid` has exited and been reaped. */
export function expectGone(pid: number): void {
  expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
}
