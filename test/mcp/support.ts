// Shared test helpers: in-memory sessions against the fixture server, a recording sink, a hand-run clock.
import { fileURLToPath } from 'node:url';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Clock } from '../../src/clock.js';
import type { McpHub } from '../../src/mcp/hub.js';
import type { Outcome } from '../../src/relay/types.js';
import type {
  ElicitationContext,
  ElicitationMode,
  ElicitationSink,
  IncomingElicitation,
  McpServerSpec,
  McpTransport,
  ServerStatus,
} from '../../src/mcp/types.js';
import { createElicitServer } from '../fixtures/elicit-server.js';
import { deferred, type Deferred } from '../support/deferred.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export const FLAT_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
};

export function inMemorySpec(name = 'fixture', elicitationMode?: ElicitationMode): McpServerSpec {
  // The transport spec is never used: the tests' connect factory builds in-memory pairs instead.
  return {
    name,
    transport: { kind: 'stdio', command: 'unused', args: [], env: {} },
    elicitationTimeoutMs: 60_000,
    ...(elicitationMode === undefined ? {} : { elicitationMode }),
  };
}

/**
 * A connect factory that links each new session to a fresh fixture server; counts the sessions opened
 * and keeps each server-side transport, so a test can drop a connection from the server's end.
 */
export function inMemoryConnect(): {
  connect: () => Promise<McpTransport>;
  opened: () => number;
  serverSides: InMemoryTransport[];
} {
  const serverSides: InMemoryTransport[] = [];
  return {
    serverSides,
    opened: () => serverSides.length,
    connect: async () => {
      const [client, server] = InMemoryTransport.createLinkedPair();
      serverSides.push(server);
      await createElicitServer().connect(server);
      return client;
    },
  };
}

/**
 * A connect factory whose n-th transport is handed over only when the test calls `release(n)` (or `fail(n)`),
 * so the test decides when each session's opening may go on; `called` counts the connects asked for so far.
 */
export function gatedConnect() {
  const gates: Deferred<void>[] = [];
  const waiters: (() => void)[] = [];
  let called = 0;
  const gate = (n: number) => (gates[n] ??= deferred<void>());
  return {
    called: () => called,
    /** Resolves when the connect factory has been called `n` times. */
    calledTimes: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (called >= n ? (resolve(), true) : false);
        if (!check()) waiters.push(() => void check());
      }),
    release: (n: number) => gate(n).resolve(),
    fail: (n: number) => gate(n).reject(new Error(`connect ${n} refused`)),
    connect: async (): Promise<McpTransport> => {
      const opened = gate(called).promise;
      called += 1;
      for (const waiter of waiters) waiter();
      await opened;
      const [client, server] = InMemoryTransport.createLinkedPair();
      await createElicitServer().connect(server);
      return client;
    },
  };
}

export interface Asked {
  request: IncomingElicitation;
  ctx: ElicitationContext;
}

/** A sink that records every elicitation (and each call's settled 2026 URL ids) and answers with `answer`. */
export function recordingSink(
  answer: (asked: Asked) => Outcome | Promise<Outcome>,
): ElicitationSink & { asked: Asked[]; settled: string[][] } {
  const asked: Asked[] = [];
  const settled: string[][] = [];
  return {
    asked,
    settled,
    ask: (request, ctx) => {
      const entry = { request, ctx };
      asked.push(entry);
      return Promise.resolve(answer(entry));
    },
    linksSettled: (ids) => void settled.push(ids),
  };
}

export function askArgs(
  schema: unknown = FLAT_SCHEMA,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { message: 'Who are you?', schema, ...extra };
}

interface Timer {
  at: number;
  ms: number;
  fn: () => void;
  done: boolean;
}

/** A clock whose timers run only when the test says so; random() is fixed (default 0.5). */
export function handClock(start = 1_700_000_000_000, random = 0.5) {
  let now = start;
  const timers: Timer[] = [];
  const clock: Clock = {
    now: () => now,
    random: () => random,
    schedule: (fn, ms) => {
      const timer = { at: now + ms, ms, fn, done: false };
      timers.push(timer);
      return () => void (timer.done = true);
    },
  };
  return {
    clock,
    /** Delays (ms) of the timers not yet run or cancelled, in the order they were set. */
    pending: () => timers.filter((t) => !t.done).map((t) => t.ms),
    /** Moves time on by `ms` and runs every timer that falls due, earliest first. */
    advance(ms: number): void {
      now += ms;
      for (const timer of timers.filter((t) => !t.done && t.at <= now).sort((a, b) => a.at - b.at)) {
        timer.done = true;
        timer.fn();
      }
    },
    /** Runs the pending timers whose delay is `ms` (without moving time), e.g. every idle-close timer. */
    fire(ms: number): void {
      for (const timer of timers.filter((t) => !t.done && t.ms === ms)) {
        timer.done = true;
        timer.fn();
      }
    },
  };
}

/** Resolves with the first status of `server` that the hub reports through onStatus and `match` accepts. */
export function statusWatch() {
  const seen: ServerStatus[] = [];
  const waiters: { match: (s: ServerStatus) => boolean; resolve: (s: ServerStatus) => void }[] = [];
  return {
    seen,
    onStatus: (status: ServerStatus) => {
      seen.push(status);
      for (const waiter of waiters.filter((w) => w.match(status))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(status);
      }
    },
    next: (match: (s: ServerStatus) => boolean) =>
      new Promise<ServerStatus>((resolve) => waiters.push({ match, resolve })),
  };
}

/** The single status of a one-server hub. */
export function onlyStatus(hub: McpHub): ServerStatus | undefined {
  return hub.status()[0];
}
