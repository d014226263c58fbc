// `elicit-relay ask|call`: asks through the API, waits past the 60 s long-poll limit by asking again, prints the
// result on stdout and returns the exit code of PRODUCT's table.
import { randomUUID } from 'node:crypto';
import { ClientError, request, waitUntilEnded, type Endpoint, type Http } from './api.js';
import {
  CLIENT_USAGE,
  ClientUsageError,
  parseClientArgs,
  type ClientCommand,
  type ParseSources,
} from './args.js';
import { showStatus, type StatusOutput } from './status.js';

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
    // A request the API refused as invalid (400: e.g. a schema the form engine cannot show) is wrong use.
    return error.status === 400 ? EXIT.usage : EXIT.error;
  }
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
  const { message, to, requestedSchema, timeout } = command;
  const created = await create(io, command, '/api/v1/questions', {
    message,
    to,
    requestedSchema,
    ...(timeout === undefined ? {} : { timeout }),
  });
  const status = showStatus(io.stderr, `waiting for an answer to question ${created}`);
  try {
    const ended = await waitUntilEnded(
      io,
      command,
      `/api/v1/questions/${created}`,
      (b) => b.status === 'pending',
    );
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
    as: { user: command.as },
  };
  const created = await create(io, command, '/api/v1/calls', body);
  const status = showStatus(io.stderr, `waiting for ${command.server} ${command.tool} (call ${created})`);
  try {
    const ended = await waitUntilEnded(
      io,
      command,
      `/api/v1/calls/${created}`,
      (b) => b.status === 'running',
    );
    if (ended.result !== undefined) io.stdout.write(`${JSON.stringify(ended.result)}\n`);
    if (ended.status !== 'completed')
      io.stderr.write(`elicit-relay: the call failed: ${String(ended.error)}\n`);
    return callExit(ended.status);
  } finally {
    status.stop();
  }
}

/** POSTs with one Idempotency-Key for every retry of this invocation; resolves with the new resource's id. */
async function create(io: ClientIO, endpoint: Endpoint, path: string, body: unknown): Promise<string> {
  const headers = { 'Idempotency-Key': randomUUID() };
  const created = await request(io, endpoint, path, { method: 'POST', body, headers });
  if (typeof created.id !== 'string') throw new ClientError('refused', `${path} answered without an id`);
  return created.id;
}
