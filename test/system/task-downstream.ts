// A 2025-11-25 server over Streamable HTTP whose one tool `slow` must run as a task, and whose task stays
// `working` until the bot cancels it (`tasks/cancel`): for a person's run cancelled from Slack. `cancelled(taskId)`
// resolves once that task was cancelled; `results` counts the `tasks/result` requests (the bot reads none of a
// cancelled task's).
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { serveSessions } from '../fixtures/http-sessions.js';

/** How often the bot polls the task, in ms (the least tasks.ts allows is 250). */
const POLL_MS = 250;

export async function taskDownstream() {
  const cancelled: string[] = [];
  const waiting: (() => void)[] = [];
  const record = { results: 0 };
  const make = (): McpServer => {
    const capabilities = { tools: {}, tasks: { requests: { tools: { call: {} } }, cancel: {} } };
    const mcp = new McpServer({ name: 'task-downstream', version: '1.0.0' }, { capabilities });
    const server = mcp.server;
    const taskIds = new Set<string>();
    const task = (taskId: string) => ({
      taskId,
      status: cancelled.includes(taskId) ? ('cancelled' as const) : ('working' as const),
      ttl: null,
      createdAt: new Date().toISOString(),
      lastUpdatedAt: new Date().toISOString(),
      pollInterval: POLL_MS,
    });
    const listed = {
      name: 'slow',
      inputSchema: { type: 'object' as const },
      execution: { taskSupport: 'required' },
    };
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [listed] }));
    server.setRequestHandler(CallToolRequestSchema, () => {
      const taskId = randomUUID();
      taskIds.add(taskId);
      return { task: task(taskId) };
    });
    server.setRequestHandler(GetTaskRequestSchema, (request) => task(request.params.taskId));
    server.setRequestHandler(GetTaskPayloadRequestSchema, () => {
      record.results += 1;
      return { content: [{ type: 'text', text: 'built' }] };
    });
    server.setRequestHandler(CancelTaskRequestSchema, (request) => {
      cancelled.push(request.params.taskId);
      for (const wake of waiting.splice(0)) wake();
      return task(request.params.taskId);
    });
    return mcp;
  };
  const served = await serveSessions(0, make);
  return {
    url: `http://127.0.0.1:${served.port}/mcp`,
    close: served.close,
    record,
    /** Resolves with the ids of the tasks cancelled, once there is one. */
    cancelled: async (): Promise<string[]> => {
      if (cancelled.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
      return [...cancelled];
    },
  };
}
