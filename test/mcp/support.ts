// Shared test helpers: in-memory sessions against the fixture server, and a recording sink.
import { fileURLToPath } from 'node:url';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Outcome } from '../../src/relay/types.js';
import type {
  ElicitationContext,
  ElicitationMode,
  ElicitationSink,
  IncomingElicitation,
  McpServerSpec,
  McpTransport,
} from '../../src/mcp/types.js';
import { createElicitServer } from '../fixtures/elicit-server.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const fixturePath = fileURLToPath(new URL('../fixtures/elicit-server.ts', import.meta.url));

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

export interface Asked {
  request: IncomingElicitation;
  ctx: ElicitationContext;
}

/** A sink that records every elicitation and answers with `answer`. */
export function recordingSink(
  answer: (asked: Asked) => Outcome | Promise<Outcome>,
): ElicitationSink & { asked: Asked[] } {
  const asked: Asked[] = [];
  return {
    asked,
    ask: (request, ctx) => {
      const entry = { request, ctx };
      asked.push(entry);
      return Promise.resolve(answer(entry));
    },
  };
}

export function askArgs(
  schema: unknown = FLAT_SCHEMA,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { message: 'Who are you?', schema, ...extra };
}
