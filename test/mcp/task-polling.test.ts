// A 2025-11-25 task is polled with `tasks/get` every `pollInterval` ms the server names (tasks.ts). A sloppy server's
// interval (0, or seconds written as milliseconds) made a tight loop of requests for the task's whole life, and one
// longer than the call's silence limit failed a working task as timed out: the wait is kept within 250 ms..30 s.
// And every request goes to the task the call created, whatever id a `tasks/get` answer names.
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { MAX_POLL_MS, MIN_POLL_MS, runToolTask } from '../../src/mcp/tasks.js';
import type { Clock } from '../../src/clock.js';

const CREATED = new Date(0).toISOString();
const task = (taskId: string, status: 'working' | 'completed', pollInterval?: number) => ({
  taskId,
  status,
  ttl: null,
  createdAt: CREATED,
  lastUpdatedAt: CREATED,
  ...(pollInterval === undefined ? {} : { pollInterval }),
});

/**
 * A server whose task `task-1` is working for as many `tasks/get` as `answers` holds (each answer the Task it
 * sends), then completed; `asked` records the task id of each tasks/get and tasks/result.
 */
function taskServer(first: ReturnType<typeof task>, answers: ReturnType<typeof task>[]) {
  const asked: string[] = [];
  const capabilities = { tools: {}, tasks: { requests: { tools: { call: {} } } } };
  const server = new Server({ name: 'tasks-2025', version: '1.0.0' }, { capabilities });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  server.setRequestHandler(CallToolRequestSchema, () => ({ task: first }));
  let gets = 0;
  server.setRequestHandler(GetTaskRequestSchema, (request) => {
    asked.push(`get ${request.params.taskId}`);
    gets += 1;
    return answers[gets - 1] ?? task('task-1', 'completed');
  });
  server.setRequestHandler(GetTaskPayloadRequestSchema, (request) => {
    asked.push(`result ${request.params.taskId}`);
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return { server, asked };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A clock whose every wait is recorded (ms) and ends at the next turn of the event loop, not after its time. */
function waitsRecorded(): Clock & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.now(),
    random: () => 0.5,
    schedule: (fn, ms) => {
      waits.push(ms);
      const timer = setImmediate(fn);
      return () => clearImmediate(timer);
    },
  };
}

async function run(server: Server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  closers.push(() => client.close());
  const clock = waitsRecorded();
  const signal = new AbortController().signal;
  const hooks = { created: () => undefined, status: () => undefined };
  const result = await runToolTask(client, { name: 't', arguments: {} }, { signal }, clock, hooks);
  return { result, waits: clock.waits };
}

describe('polling a 2025-11-25 task', () => {
  it('waits at least 250 ms between tasks/get when the server asks for 0 ms or less', async () => {
    const { server } = taskServer(task('task-1', 'working', 0), [
      task('task-1', 'working', 1),
      task('task-1', 'working', -5),
    ]);
    const { result, waits } = await run(server);
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(waits).toEqual([MIN_POLL_MS, MIN_POLL_MS, MIN_POLL_MS]);
  });

  it('waits at most 30 s, within any call’s silence limit, and as asked in between', async () => {
    const { server } = taskServer(task('task-1', 'working', 3_600_000), [task('task-1', 'working', 2_000)]);
    const { waits } = await run(server);
    expect(waits).toEqual([MAX_POLL_MS, 2_000]);
    expect(MAX_POLL_MS).toBe(30_000);
  });

  it('keeps asking for the task it created when a tasks/get answer names another', async () => {
    const { server, asked } = taskServer(task('task-1', 'working'), [task('task-2', 'working')]);
    await run(server);
    expect(asked).toEqual(['get task-1', 'get task-1', 'result task-1']);
  });
});
