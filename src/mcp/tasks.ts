// Task-augmented tool calls of revision 2025-11-25, driven by hand. SDK 2.x removed its experimental tasks
// layer (callToolStream) and keeps only the wire vocabulary, and @modelcontextprotocol/ext-tasks speaks the
// 2026 tasks extension (tasks/update), not this revision's tasks/result; so the flow is the one SDK 1.x ran:
// `tools/call` with `task: {}` creates a task, `tasks/get` is polled (every `pollInterval` ms the server
// asks for, default 1 s) until the task needs input or is over, then `tasks/result` blocks, carrying the
// task's elicitations (as requests tagged with its id) and then the call's result.
import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
} from '@modelcontextprotocol/core';
import type { Clock } from '../clock.js';
import { TOOL_TIMEOUT_MARGIN_MS } from './call.js';

/** How long to wait between two `tasks/get` when the server names no `pollInterval`, in ms. */
const DEFAULT_POLL_MS = 1000;
/**
 * The shortest wait between two `tasks/get`, in ms, whatever `pollInterval` says: a server sending 0 (or seconds,
 * `pollInterval: 1`) would otherwise be polled in a tight loop, thousands of requests a second for the task's life.
 */
export const MIN_POLL_MS = 250;
/**
 * The longest, in ms: each `tasks/get` answer is the call's sign of life (call.ts), so a task polled less often
 * than the call's silence limit (the server's elicitation timeout + TOOL_TIMEOUT_MARGIN_MS) would fail as timed
 * out while it works; this is that margin, so a task is polled within every silence limit.
 */
export const MAX_POLL_MS = TOOL_TIMEOUT_MARGIN_MS;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export interface TaskHooks {
  /** The server created the task. */
  created(taskId: string): void;
  /** A `tasks/get` answer: a sign of life, with the task's status message if any. */
  status(message: string | undefined): void;
}

/** Runs one tool call as a task; resolves with the raw `CallToolResult`. */
export async function runToolTask(
  client: Client,
  params: { name: string; arguments: Record<string, unknown> },
  options: RequestOptions & { signal: AbortSignal },
  clock: Clock,
  hooks: TaskHooks,
): Promise<Record<string, unknown>> {
  const created = await client.request(
    { method: 'tools/call', params: { ...params, task: {} } },
    CreateTaskResultSchema,
    options,
  );
  // The task created is the call's: a `tasks/get` answer naming another id does not send the next requests there.
  const { taskId } = created.task;
  let task = created.task;
  hooks.created(taskId);
  hooks.status(task.statusMessage);
  while (!TERMINAL.has(task.status) && task.status !== 'input_required') {
    await pause(clock, pollWait(task.pollInterval), options.signal);
    task = await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema, options);
    hooks.status(task.statusMessage);
  }
  return client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema, options);
}

/** The wait before the next `tasks/get`: the server's `pollInterval` (ms) within MIN_POLL_MS..MAX_POLL_MS. */
function pollWait(pollInterval: number | undefined): number {
  const asked = pollInterval ?? DEFAULT_POLL_MS;
  // NaN cannot come through JSON; a negative or fractional value can, and is clamped like any other.
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, asked));
}

/** A task outlives the request that created it: when the call is abandoned, the server is told. */
export async function cancelToolTask(client: Client, taskId: string): Promise<void> {
  await client.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema);
}

/**
 * Waits `ms`, or less when `signal` aborts: the next request then fails at once with the aborted signal
 * (the SDK rejects a request whose signal has already aborted), so the call ends the usual way.
 */
function pause(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      cancel();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const cancel = clock.schedule(done, ms);
    signal.addEventListener('abort', done, { once: true });
    if (signal.aborted) done();
  });
}
