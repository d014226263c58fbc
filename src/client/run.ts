// `elicit-relay ask|call`: asks through the API, waits past the 60 s long-poll limit by asking again, prints the
// result on stdout and returns the exit code of PRODUCT's table.
import { randomUUID } from 'node:crypto';
import type { ApiErrorCode } from '../api/errors.js';
import { ClientError, request, waitUntilEnded, type Endpoint, type Http, type OutageWatch } from './api.js';
import {
  CLIENT_USAGE,
  ClientUsageError,
  parseClientArgs,
  type ClientCommand,
  type ParseSources,
} from './args.js';
import { CREATING, waitingOn } from './patience.js';
import { showStatus, type StatusLine, type StatusOutput } from './status.js';

/** PRODUCT "Command line": the exit codes. */
export const EXIT = { accepted: 0, declined: 1, usage: 2, cancelled: 3, error: 4 } as const;

export interface ClientIO extends ParseSources, Http {
  stdout: { write(text: string): unknown };
  stderr: StatusOutput;
}

/** The exit code of a question's final status; anything but accepted or declined counts as cancelled. */
export function questionExit(status: unknown): number {
  if (status === 'accepted') return EXIT.accepted;
  if (status === 'declined') return EXIT.declined;
  return EXIT.cancelled;
}

/** The exit code of a call's final status. */
export function callExit(status: unknown): number {
  return status === 'completed' ? EXIT.accepted : EXIT.error;
}

export async function runClient(argv: string[], io: ClientIO): Promise<number> {
  let command: ClientCommand;
  try {
    command = parseClientArgs(argv, io);
  } catch (error) {
    if (!(error instanceof ClientUsageError)) return unexpected(error, io);
    io.stderr.write(`elicit-relay: ${error.message}\n\n${CLIENT_USAGE}\n`);
    return EXIT.usage;
  }
  if (command.command === 'help') {
    io.stdout.write(`${CLIENT_USAGE}\n`);
    return 0;
  }
  try {
    return command.command === 'ask' ? await ask(command, io) : await call(command, io);
  } catch (error) {
    if (!(error instanceof ClientError)) return unexpected(error, io);
    io.stderr.write(`elicit-relay: ${error.message}\n`);
    return refusalExit(error);
  }
}

/**
 * The API's refusals of what the person typed, by the API's error code: a field it finds wrong (--to, --timeout,
 * --server, --team missing for a bot in several workspaces), a --schema the form engine cannot show, a body over
 * 1 MB (a --schema file that large). Every other refusal is a state of the deployment or the workspace, not of
 * the command line (a user group with no members, a token or target this client may not use, a person not
 * signed in, a question expired), or a fault of this client (a body that is not JSON), and exits 4.
 */
const USAGE_REFUSALS: ReadonlySet<string> = new Set([
  'invalid_request',
  'invalid_schema',
  'payload_too_large',
] satisfies ApiErrorCode[]);

/** PRODUCT's "2 on a usage error, 4 on any other error" for a failed request. */
function refusalExit(error: ClientError): number {
  return error.code === 'refused' && error.apiCode !== undefined && USAGE_REFUSALS.has(error.apiCode)
    ? EXIT.usage
    : EXIT.error;
}

/**
 * Any other failure is "any other error" (exit 4) with a line saying what it was. Rethrown, it would reach
 * cli.ts's top-level await and leave Node to exit 1, which a pipeline reads as "declined".
 */
function unexpected(error: unknown, io: ClientIO): number {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  io.stderr.write(`elicit-relay: unexpected error: ${what}\n`);
  return EXIT.error;
}

type Ask = Extract<ClientCommand, { command: 'ask' }>;
type Call = Extract<ClientCommand, { command: 'call' }>;

async function ask(command: Ask, io: ClientIO): Promise<number> {
  const { message, to, requestedSchema, timeout, team } = command;
  const { id, deadline } = await create(io, command, '/api/v1/questions', {
    message,
    to,
    requestedSchema,
    ...(timeout === undefined ? {} : { timeout }),
    ...(team === undefined ? {} : { team }),
  });
  const status = showStatus(io.stderr, `waiting for an answer to question ${id}`, io.now);
  try {
    const ended = await waitUntilEnded(io, command, `/api/v1/questions/${id}`, {
      pending: (b) => b.status === 'pending',
      patience: waitingOn(`question ${id}`, deadline),
      watch: outageShown(status, `waiting for an answer to question ${id}`),
    });
    io.stdout.write(`${JSON.stringify(ended.result ?? { action: 'cancel' })}\n`);
    return questionExit(ended.status);
  } finally {
    status.stop();
  }
}

async function call(command: Call, io: ClientIO): Promise<number> {
  const body = {
    server: command.server,
    tool: command.tool,
    arguments: command.arguments,
    as: { user: command.as, ...(command.team === undefined ? {} : { team: command.team }) },
  };
  const { id } = await create(io, command, '/api/v1/calls', body);
  const waiting = `waiting for ${command.server} ${command.tool} (call ${id})`;
  const status = showStatus(io.stderr, waiting, io.now);
  try {
    // A call has no deadline of its own: an outage is ridden out for OUTAGE_GRACE_MS from its start.
    const ended = await waitUntilEnded(io, command, `/api/v1/calls/${id}`, {
      pending: (b) => b.status === 'running',
      patience: waitingOn(`call ${id}`, undefined),
      watch: outageShown(status, waiting),
    });
    if (ended.result !== undefined) io.stdout.write(`${JSON.stringify(ended.result)}\n`);
    if (ended.status !== 'completed')
      io.stderr.write(`elicit-relay: the call failed: ${String(ended.error)}\n`);
    return callExit(ended.status);
  } finally {
    status.stop();
  }
}

/** The status line through an outage while waiting: it says so, and says when the bot answers again. */
function outageShown(status: StatusLine, waiting: string): OutageWatch {
  return {
    down: (cause, until) =>
      status.show(
        `waiting for the bot to come back (${String(cause)}); asking again until ${new Date(until).toISOString()}`,
      ),
    back: () => status.show(`the bot answers again; ${waiting}`),
  };
}

interface Created {
  id: string;
  /** A question's deadline (ms since the epoch), when the answer has a readable one; a call has none. */
  deadline: number | undefined;
}

/** POSTs with one Idempotency-Key for every retry of this invocation; resolves with the new resource's id. */
async function create(io: ClientIO, endpoint: Endpoint, path: string, body: unknown): Promise<Created> {
  const headers = { 'Idempotency-Key': randomUUID() };
  const created = await request(io, endpoint, path, { method: 'POST', body, headers, patience: CREATING });
  if (typeof created.id !== 'string') throw new ClientError('refused', `${path} answered without an id`);
  const deadline = typeof created.deadline === 'string' ? Date.parse(created.deadline) : NaN;
  return { id: created.id, deadline: Number.isNaN(deadline) ? undefined : deadline };
}
