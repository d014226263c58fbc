// A durable 2026 round taken over by a survivor whose listing now refuses the tool (its listing changed while
// people answered: the definition breaks the MCP schema, or its outputSchema cannot be compiled). The retry is
// never sent (malformed_tool, before anything goes to the server). Before, the refusal reached the person but the
// round stayed claimed in the store: once its lease lapsed the take-over sweep claimed it again and the person read
// the refusal once more, every lease, until the round's deadline plus its hour of grace. Now the refusal ends the
// call as any other failure of a resumed call does: the round goes, and the person reads the refusal once.
// So does a round of a server the survivor's configuration no longer names (removed from the deployment).
// Real parts: the Redis round store, the take-over sweep (on a hand-fired clock), and a 2026-07-28 SDK 2.x server
// over Streamable HTTP in process.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import type { ToolResult } from '../../src/mcp/types.js';
import { RedisConnections, endClient, keys, type RedisClient } from '../../src/redis/index.js';
import { mcpToolRunner } from '../../src/relay/sources/mcp.js';
import {
  ROUND_LEASE_MS,
  RedisRoundStore,
  roundKeeper,
  startTakeOver,
  type Claim,
  type Round,
} from '../../src/rounds/index.js';
import { malformedTools2026 } from '../fixtures/malformed-tools-2026.js';
import { handClock } from '../rounds/support.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { CONFIRM, origin, scriptedHub } from './mrtr-scripted.js';

/** The Redis store, handing the test each take-over sweep's claims as the store answers them. */
class WatchedStore extends RedisRoundStore {
  private waiters: ((taken: Round[]) => void)[] = [];
  swept(): Promise<Round[]> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  override async takeOver(claim: Claim): Promise<Round[]> {
    const taken = await super.takeOver(claim);
    for (const wake of this.waiters.splice(0)) wake(taken);
    return taken;
  }
}

const clients: RedisClient[] = [];
const prefixes: string[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await Promise.all(clients.splice(0).map((client) => endClient(client, true)));
});
afterAll(async () => {
  await Promise.all(prefixes.map((prefix) => deleteUnder(prefix)));
});

async function redisStore(): Promise<WatchedStore> {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const k = keys(prefix);
  const redis = await new RedisConnections({ url: redisUrl() }, recordingLogger()).command(
    k.connectionName('rounds', 'survivor'),
  );
  clients.push(redis);
  return new WatchedStore({ redis, keys: k });
}

/** The round r1 (gone: it holds no lease) asked of `measured`, answered since: complete, nobody claimed it. */
async function answeredRound(store: RedisRoundStore, server = 'modern'): Promise<string> {
  const request = { method: 'elicitation/create', params: { message: 'OK?', requestedSchema: CONFIRM } };
  const { id } = await store.open({
    server,
    tool: 'measured',
    args: {},
    origin,
    requestState: 'sealed',
    requests: [{ key: 'ok', request }],
    round: 1,
    deadline: Date.now() + 600_000,
    holder: 'r1',
  });
  const answer = { action: 'accept', content: { ok: true } };
  expect(await store.answer(id, 1, 'ok', answer, undefined)).toBe('recorded');
  return id;
}

const cache = { ttlMs: 0, cacheScope: 'private' };
const listings: [string, Record<string, unknown>, string][] = [
  [
    'its outputSchema cannot be compiled',
    {
      name: 'measured',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'nonsense' } } },
    },
    'outputSchema: type must be JSONType or JSONType[]: nonsense',
  ],
  [
    'its definition breaks the MCP schema',
    { name: 'measured', inputSchema: { type: 'string' } },
    'inputSchema.type: Invalid input: expected "object"',
  ],
];

describe('a durable round whose survivor refuses its tool at listing', () => {
  it.each(listings)(
    'ends the call once when %s: the person reads why, the round goes',
    async (_, tool, why) => {
      const record = { listed: [] as (string | undefined)[], calls: [] as string[] };
      const handler = malformedTools2026(record, { tools: [tool], ...cache });
      const store = await redisStore();
      const id = await answeredRound(store);
      const rounds = roundKeeper({
        store,
        claimant: 'r2',
        clock: systemClock,
        logger: { warn: () => undefined },
      });
      const { hub } = scriptedHub(handler, () => ({ action: 'cancel' }), rounds);
      const tools = mcpToolRunner(hub);
      const resumed: Promise<ToolResult>[] = [];
      let onResume = (_run: { ended: Promise<ToolResult> }): void => undefined;
      const nextResume = () => new Promise<{ ended: Promise<ToolResult> }>((resolve) => (onResume = resolve));
      const clock = handClock(Date.now());
      // A sweep once a lease has lapsed: each sweep after the first finds a claim that was not renewed lapsed.
      const sweeps = {
        store,
        claimant: 'r2',
        clock,
        everyMs: ROUND_LEASE_MS + 1,
        resume: (call: Parameters<typeof tools.callTool>[0]) => {
          const run = tools.callTool(call);
          resumed.push(run);
          onResume({ ended: run });
          return run;
        },
        logger: { warn: () => undefined },
      };
      stops.push(startTakeOver(sweeps));

      const first = nextResume();
      clock.fire();
      expect(await (await first).ended).toEqual({
        isError: true,
        text: `measured on modern was not run: its definition is malformed (${why})`,
      });
      expect(record.calls, 'nothing was sent').toEqual([]);
      expect(await store.get(id), 'the call ended: its round goes').toBeUndefined();

      const second = store.swept();
      clock.fire();
      expect(await second, 'the next sweep, past the lease, finds nothing to resume').toEqual([]);
      expect(resumed).toHaveLength(1);
    },
  );
});

describe('a durable round of a server this deployment no longer configures', () => {
  it('ends the call once saying no such server is configured: the round goes, no sweep resumes it again', async () => {
    const handler = malformedTools2026({ listed: [], calls: [] }, { tools: [], ...cache });
    const store = await redisStore();
    const id = await answeredRound(store, 'removed');
    const rounds = roundKeeper({
      store,
      claimant: 'r2',
      clock: systemClock,
      logger: { warn: () => undefined },
    });
    const tools = mcpToolRunner(scriptedHub(handler, () => ({ action: 'cancel' }), rounds).hub);
    const resumed: Promise<ToolResult>[] = [];
    let onResume = (_run: Promise<ToolResult>): void => undefined;
    const firstRun = new Promise<ToolResult>((resolve) => (onResume = resolve));
    const clock = handClock(Date.now());
    const first = store.swept();
    stops.push(
      startTakeOver({
        store,
        claimant: 'r2',
        clock,
        everyMs: ROUND_LEASE_MS + 1,
        resume: (call) => {
          const run = tools.callTool(call);
          resumed.push(run);
          onResume(run);
          return run;
        },
        logger: { warn: () => undefined },
      }),
    );

    clock.fire();
    expect((await first).map((round) => round.id)).toEqual([id]);
    expect(await firstRun).toEqual({ isError: true, text: 'no MCP server named "removed"' });
    expect(await store.get(id), 'the call ended: its round goes').toBeUndefined();

    // Before, the round stayed claimed: past its lease the sweep took it again and the person read it again.
    const second = store.swept();
    clock.fire();
    expect(await second).toEqual([]);
    expect(resumed).toHaveLength(1);
  });
});
