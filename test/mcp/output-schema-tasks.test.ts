// A tool run as a 2025-11-25 task: its result comes by `tasks/result`, which the SDK reads as any request's result
// and checks against no outputSchema, so structuredContent that broke the listed schema reached the person as if it
// were the tool's answer (a plain call's is checked by the hub, output-check.ts). Now the task's result is checked
// exactly as a plain call's is: the same errors in the same words, an isError result left unchecked. A real SDK 1.x
// low-level Server (which checks none of the results it sends) in memory, answering tools/call plainly or with a
// task whose result `tasks/result` returns, as the listing's taskSupport asks.
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { McpHub } from '../../src/mcp/hub.js';
import { McpClientError } from '../../src/mcp/types.js';
import { inMemorySpec, recordingSink } from './support.js';

const OUTPUT = { type: 'object' as const, properties: { n: { type: 'number' } }, required: ['n'] };
const seven = [{ type: 'text' as const, text: 'seven' }];
const origin = { userId: 'U1' };
const CREATED = new Date(0).toISOString();
/** The one task: done at once, so the client goes straight to tasks/result. */
const TASK = {
  taskId: 'task-1',
  status: 'completed' as const,
  ttl: null,
  createdAt: CREATED,
  lastUpdatedAt: CREATED,
};

/** A 2025-11-25 server whose one tool, `measured`, is listed with OUTPUT and answers `result`. */
function measuredServer(taskSupport: 'forbidden' | 'required', result: CallToolResult) {
  const record = { tasks: 0, results: 0 };
  const capabilities = { tools: {}, tasks: { requests: { tools: { call: {} } } } };
  const server = new Server({ name: 'tasks-2025', version: '1.0.0' }, { capabilities });
  const listed = { name: 'measured', inputSchema: { type: 'object' as const }, outputSchema: OUTPUT };
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ ...listed, execution: { taskSupport } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.task === undefined) return result;
    record.tasks += 1;
    return { task: TASK };
  });
  server.setRequestHandler(GetTaskRequestSchema, () => TASK);
  server.setRequestHandler(GetTaskPayloadRequestSchema, () => {
    record.results += 1;
    return result;
  });
  return { server, record };
}

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** Calls `measured` once, run as `taskSupport` says; how the call ended, as a person reads it. */
async function ended(taskSupport: 'forbidden' | 'required', result: CallToolResult) {
  const { server, record } = measuredServer(taskSupport, result);
  const hub = new McpHub({
    servers: [inMemorySpec('tasks')],
    sink: recordingSink(() => ({ action: 'cancel' })),
    connect: async () => {
      const [client, side] = InMemoryTransport.createLinkedPair();
      await server.connect(side);
      return client;
    },
  });
  hubs.push(hub);
  const how = await hub.callTool({ server: 'tasks', tool: 'measured', args: {}, origin }).then(
    ({ isError, text, structured }) => ({ isError, text, structured }),
    (error: unknown) => ({
      code: error instanceof McpClientError ? error.code : undefined,
      message: error instanceof Error ? error.message : String(error),
    }),
  );
  return { how, record, version: hub.status()[0]?.protocolVersion };
}

const cases: [string, CallToolResult, unknown][] = [
  [
    'fails a result that breaks it, saying what does not match',
    { content: seven, structuredContent: { n: 'seven' } },
    {
      code: 'tool_failed',
      message:
        'tool measured on tasks returned structuredContent that does not match its outputSchema (data/n must be number)',
    },
  ],
  [
    'fails a result without structuredContent',
    { content: seven },
    {
      code: 'tool_failed',
      message: 'tool measured on tasks returned no structuredContent, which its outputSchema requires',
    },
  ],
  [
    'leaves an isError result unchecked',
    { content: [{ type: 'text', text: 'broke' }], isError: true },
    { isError: true, text: 'broke', structured: undefined },
  ],
  [
    'passes a result that matches it unchanged',
    { content: seven, structuredContent: { n: 7 } },
    { isError: false, text: 'seven', structured: { n: 7 } },
  ],
];

describe("a 2025-11-25 task's result against the listed outputSchema", () => {
  it.each(cases)('%s, as a plain call is', async (_, result, expected) => {
    const task = await ended('required', result);
    expect(task.version).toBe('2025-11-25');
    expect(task.record, 'run as a task, its result read by tasks/result').toEqual({ tasks: 1, results: 1 });
    expect(task.how).toEqual(expected);
    const plain = await ended('forbidden', result);
    expect(plain.record, 'run plainly').toEqual({ tasks: 0, results: 0 });
    expect(plain.how).toEqual(task.how);
  });
});
