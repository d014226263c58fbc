// A durable 2026 round taken over by a survivor whose connection to the server negotiates a 2025 era (the server
// was rolled back to a 2025 build, or judged legacy: over stdio a probe answered late counts as legacy). The retry
// (requestState and the recorded answers) has no place on a 2025 connection: the survivor says so (round_expired,
// as McpSession.lend does for a successor session) and drops the round, never running the tool from scratch
// without the answers people gave, neither as a plain call nor as a 2025-11-25 task.
import { describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpHub } from '../../src/mcp/hub.js';
import { McpClientError } from '../../src/mcp/types.js';
import { systemClock } from '../../src/clock.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { MemoryRoundStore } from '../../src/rounds/memory-store.js';
import { resumedCall } from '../../src/rounds/take-over.js';
import { inMemorySpec, recordingSink } from './support.js';
import { origin } from './mrtr-scripted.js';

/** A 2025 server whose one tool deploys at once (as a task only, when `taskSupport` says so). */
function rolledBack(taskSupport: 'forbidden' | 'required') {
  const ran = { deployments: 0 };
  const server = (): Server => {
    const s = new Server({ name: 'rolled-back', version: '1.0.0' }, { capabilities: { tools: {} } });
    s.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'deploy', inputSchema: { type: 'object' as const }, execution: { taskSupport } }],
    }));
    s.setRequestHandler(CallToolRequestSchema, () => {
      ran.deployments += 1;
      return { content: [{ type: 'text' as const, text: 'deployed without asking anyone' }] };
    });
    return s;
  };
  return { ran, server };
}

/** The round r1 (now dead) asked, "Deploy to prod?", declined on another replica, which claimed its retry as r2. */
async function declinedRound(store: MemoryRoundStore) {
  const opened = await store.open({
    server: 'legacy',
    tool: 'deploy',
    args: {},
    origin,
    requestState: 'sealed-state',
    requests: [{ key: 'confirm', request: { method: 'elicitation/create', params: { message: 'Deploy?' } } }],
    round: 1,
    deadline: Date.now() + 600_000,
    holder: 'r1',
  });
  const claim = { claimant: 'r2', now: Date.now(), leaseMs: 15_000 };
  expect(await store.answer(opened.id, 1, 'confirm', { action: 'decline' }, claim)).toBe('claimed');
  const round = await store.get(opened.id);
  if (round === undefined) throw new Error('round gone');
  return round;
}

describe('a durable round resumed on a connection that negotiated a 2025 era', () => {
  it.each(['forbidden', 'required'] as const)(
    'fails round_expired and drops the round, never running the tool again (task support %s)',
    async (taskSupport) => {
      const { ran, server } = rolledBack(taskSupport);
      const store = new MemoryRoundStore();
      const round = await declinedRound(store);
      const hub = new McpHub({
        servers: [inMemorySpec('legacy')],
        sink: recordingSink(() => ({ action: 'cancel' })),
        rounds: roundKeeper({ store, claimant: 'r2', clock: systemClock, logger: { warn: () => undefined } }),
        connect: async () => {
          const [client, side] = InMemoryTransport.createLinkedPair();
          await server().connect(side);
          return client;
        },
      });
      try {
        const failure = await hub.callTool({ ...resumedCall(round), origin }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(failure).toBeInstanceOf(McpClientError);
        expect(failure instanceof McpClientError ? failure.code : undefined).toBe('round_expired');
        expect(ran.deployments).toBe(0);
        expect(await store.get(round.id)).toBeUndefined();
      } finally {
        await hub.close();
      }
    },
  );
});
