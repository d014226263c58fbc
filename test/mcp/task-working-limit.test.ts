// A 2025-11-25 task that stays `working` (its ttl null) kept a call without a deadline of its own (a person's
// `/mcp run`, which nobody can cancel) alive forever: each `tasks/get` answer is a sign of life that re-arms the
// silence watchdog. Such a call now fails as timed out, naming the limit, once it has worked 24 h (WORKING_MAX_MS;
// time a question of it is open is not work), and the task is cancelled on the server; a caller's own timeoutMs
// bounds the call instead, however long. A plain call's progress is bounded alike (call-working-limit.test.ts). Time here is
// virtual: it moves on only while the client waits to poll again, so a day of polls runs in a second or two.
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../../src/clock.js';
import { CallRun } from '../../src/mcp/call.js';
import { McpHub } from '../../src/mcp/hub.js';
import { MAX_POLL_MS } from '../../src/mcp/tasks.js';
import { McpClientError } from '../../src/mcp/types.js';
import { handClock, inMemorySpec, recordingSink } from './support.js';

const START = 1_700_000_000_000;
const HOUR_MS = 3_600_000;
/** The working limit of a call without a deadline (call.ts WORKING_MAX_MS). */
const DAY_MS = 24 * HOUR_MS;
const CREATED = new Date(START).toISOString();

/** A task server whose `slow` task works (polled every 30 s) until `workingMs` of polls have passed, if ever. */
function slowTaskServer(workingMs: number, clock: Clock) {
  const record: { gets: number; cancelled: string[] } = { gets: 0, cancelled: [] };
  const capabilities = { tools: {}, tasks: { requests: { tools: { call: {} } }, cancel: {} } };
  const server = new Server({ name: 'tasks-2025', version: '1.0.0' }, { capabilities });
  const task = (status: 'working' | 'completed' | 'cancelled') => ({
    taskId: 'task-1',
    status,
    ttl: null,
    createdAt: CREATED,
    lastUpdatedAt: new Date(clock.now()).toISOString(),
    pollInterval: MAX_POLL_MS,
  });
  const listed = {
    name: 'slow',
    inputSchema: { type: 'object' as const },
    execution: { taskSupport: 'required' },
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [listed] }));
  server.setRequestHandler(CallToolRequestSchema, () => ({ task: task('working') }));
  server.setRequestHandler(GetTaskRequestSchema, () => {
    record.gets += 1;
    return task(clock.now() - START >= workingMs ? 'completed' : 'working');
  });
  server.setRequestHandler(GetTaskPayloadRequestSchema, () => ({
    content: [{ type: 'text', text: 'built' }],
  }));
  server.setRequestHandler(CancelTaskRequestSchema, (request) => {
    record.cancelled.push(request.params.taskId);
    return task('cancelled');
  });
  return { server, record };
}

/**
 * Virtual time: a wait as short as a poll's (at most MAX_POLL_MS) moves time to its end at the next turn of the
 * event loop, running every timer due by then in order; longer timers (the call's silence watchdog, its deadline)
 * run only when such a move reaches them.
 */
function virtualClock(): Clock {
  let now = START;
  const timers = new Set<{ at: number; fn: () => void }>();
  const advanceTo = (until: number): void => {
    for (;;) {
      const due = [...timers].filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      timers.delete(due);
      now = Math.max(now, due.at);
      due.fn();
    }
    now = Math.max(now, until);
  };
  return {
    now: () => now,
    random: () => 0.5,
    schedule: (fn, ms) => {
      const timer = { at: now + ms, fn };
      timers.add(timer);
      if (ms <= MAX_POLL_MS) setImmediate(() => advanceTo(timer.at));
      return () => void timers.delete(timer);
    },
  };
}

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** Runs `slow` once; how it ended and after how many hours of virtual time. */
async function runSlow(workingMs: number, timeoutMs?: number) {
  const clock = virtualClock();
  const { server, record } = slowTaskServer(workingMs, clock);
  const hub = new McpHub({
    servers: [inMemorySpec('tasks')],
    sink: recordingSink(() => ({ action: 'cancel' })),
    clock,
    connect: async () => {
      const [client, side] = InMemoryTransport.createLinkedPair();
      await server.connect(side);
      return client;
    },
  });
  hubs.push(hub);
  const call = { server: 'tasks', tool: 'slow', args: {}, origin: { userId: 'U1' } };
  const ended = await hub.callTool(timeoutMs === undefined ? call : { ...call, timeoutMs }).then(
    (result) => ['result', result.text],
    (error: unknown) =>
      error instanceof McpClientError ? [error.code, error.message] : ['thrown', String(error)],
  );
  // tasks/cancel is sent once the call has failed, without being waited for.
  await new Promise<void>((resolve) => setImmediate(resolve));
  return { ended, hours: (clock.now() - START) / HOUR_MS, record };
}

describe('a 2025-11-25 task that stays working', () => {
  it('fails a call with no deadline of its own as timed out after 24 h, cancelling the task', async () => {
    // It would complete after 30 h (one that never does would keep the old code waiting forever).
    const { ended, hours, record } = await runSlow(30 * HOUR_MS);
    expect(record.gets).toBeGreaterThanOrEqual(DAY_MS / MAX_POLL_MS - 1);
    expect(ended).toEqual([
      'timeout',
      'tool slow on tasks timed out: it worked 24 h without a result, the most a call without a deadline of its own may',
    ]);
    expect(hours).toBeGreaterThanOrEqual(24);
    expect(hours).toBeLessThan(24 + MAX_POLL_MS / HOUR_MS + 0.001);
    expect(record.cancelled).toEqual(['task-1']);
  });

  it('still gives the result of a task that completes within 24 h', async () => {
    const { ended, record } = await runSlow(23.9 * HOUR_MS);
    expect(ended).toEqual(['result', 'built']);
    expect(record.cancelled).toEqual([]);
  });

  it('leaves a call with its own deadline to that deadline, even past 24 h', async () => {
    const { ended, hours } = await runSlow(30 * HOUR_MS, 25 * HOUR_MS);
    expect(ended).toEqual(['timeout', 'tool slow on tasks timed out']);
    expect(hours).toBeGreaterThanOrEqual(25);
    expect(hours).toBeLessThan(25 + MAX_POLL_MS / HOUR_MS + 0.001);
  });
});

describe('the working limit of a call’s task, on the call itself', () => {
  const call = { server: 'tasks', tool: 'slow', args: {}, origin: { userId: 'U1' } };
  const SILENCE_MS = 10 * 60_000;

  it('ends a task call whose progress, not its status, keeps coming after 24 h', () => {
    const time = handClock(START);
    const run = new CallRun(call, SILENCE_MS, time.clock);
    run.taskStatus(undefined);
    for (let at = 0; at < DAY_MS; at += MAX_POLL_MS) {
      time.advance(MAX_POLL_MS);
      run.progress({ progress: at });
    }
    expect(run.timedOut).toBe(true);
  });

  it('never counts a person answering a question of the task against it', () => {
    const time = handClock(START);
    const run = new CallRun(call, SILENCE_MS, time.clock);
    for (let at = 0; at < DAY_MS; at += MAX_POLL_MS) {
      run.taskStatus(undefined);
      time.advance(MAX_POLL_MS);
    }
    const closed = run.questionOpened(new AbortController());
    time.advance(2 * DAY_MS);
    run.progress({ progress: 1 });
    expect(run.timedOut).toBe(false);
    closed();
    run.taskStatus(undefined);
    expect(run.timedOut).toBe(true);
  });

  it('counts only the time it works: an hour before a day-long question and an hour after are not 24 h', () => {
    const time = handClock(START);
    const run = new CallRun(call, SILENCE_MS, time.clock);
    const workAnHour = (): void => {
      for (let at = 0; at < HOUR_MS; at += MAX_POLL_MS) {
        run.taskStatus(undefined);
        time.advance(MAX_POLL_MS);
      }
      run.taskStatus(undefined);
    };
    workAnHour();
    const closed = run.questionOpened(new AbortController());
    time.advance(DAY_MS);
    closed();
    workAnHour();
    expect(run.timedOut).toBe(false);
  });
});
