// A graceful stop while a durable round's retry is out (the `tools/call` sent again with the round's answers,
// its answer not back): the hub's close lets it answer first, and one that does not answer within the grace is
// left to a survivor (its call not failed here, its round kept), which sends the retry again and gets the result.
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpHub } from '../../src/mcp/hub.js';
import { systemClock } from '../../src/clock.js';
import { roundKeeper, ROUND_LEASE_MS } from '../../src/rounds/keeper.js';
import { MemoryRoundStore } from '../../src/rounds/memory-store.js';
import { resumedCall } from '../../src/rounds/take-over.js';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { createMrtrHandler } from '../fixtures/mrtr-server.js';
import { recordingSink } from './support.js';
import { deferred } from '../support/deferred.js';

const origin = { userId: 'U1', teamId: 'T1', channelId: 'D1' };
const content = { '1.name': 'Ada', '2.age': 36, '3.colour': 'green' };
const RESULT = 'name=Ada age=36 colour=green';
const logger = { warn: () => undefined };

const hubs: McpHub[] = [];
const releases: (() => void)[] = [];
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

/** Holds the retries sent through it: `sent` resolves once one arrives, `release` lets them through. */
interface HeldRetries {
  arrived: () => void;
  sent: Promise<void>;
  released: Promise<void>;
  release: () => void;
}

function holdRetries(): HeldRetries {
  const { promise: sent, resolve: arrived } = deferred();
  const { promise: released, resolve: release } = deferred();
  releases.push(release);
  return { arrived, sent, released, release };
}

/** Replica `claimant`'s hub against the shared fixture; `held`, when given, holds its retries. */
function replica(
  handler: McpHttpHandler,
  store: MemoryRoundStore,
  claimant: string,
  held?: HeldRetries,
  retryGraceMs?: number,
): McpHub {
  const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (held !== undefined && typeof init?.body === 'string' && init.body.includes('"inputResponses"')) {
      held.arrived();
      await held.released;
    }
    return handler.fetch(new Request(url, init));
  };
  const hub = new McpHub({
    servers: [
      {
        name: 'modern',
        transport: { kind: 'http', url: 'http://mrtr.test/mcp', headers: {} },
        elicitationTimeoutMs: 60_000,
      },
    ],
    sink: recordingSink(() => ({ action: 'accept', content })),
    rounds: roundKeeper({ store, claimant, clock: systemClock, logger }),
    ...(retryGraceMs === undefined ? {} : { retryGraceMs }),
    connect: () => new StreamableHTTPClientTransport(new URL('http://mrtr.test/mcp'), { fetch }),
  });
  hubs.push(hub);
  return hub;
}

/** Starts a durable call of the one-round tool on `hub`; `ended` says whether it settled yet. */
function startCall(hub: McpHub) {
  const state = { ended: false };
  const call = hub.callTool({ server: 'modern', tool: 'three_requests', args: {}, origin, durable: true });
  void call.then(
    () => (state.ended = true),
    () => (state.ended = true),
  );
  return { call, state };
}

describe('McpHub stopping while a durable round’s retry is out', () => {
  it('lets the retry answer before the sessions close: the call gets its result and its round goes', async () => {
    const store = new MemoryRoundStore();
    const held = holdRetries();
    const hub = replica(createMrtrHandler(), store, 'r1', held, 60_000);
    const { call } = startCall(hub);
    await held.sent;
    const [round] = await store.takeOver({ claimant: 'r2', now: Date.now(), leaseMs: ROUND_LEASE_MS });
    expect(round).toBeUndefined(); // claimed by r1, its lease renewed while the retry is out
    const closing = hub.close();
    held.release();
    expect((await call).text).toBe(RESULT);
    await closing;
    const later = Date.now() + ROUND_LEASE_MS + 1;
    expect(await store.takeOver({ claimant: 'r2', now: later, leaseMs: ROUND_LEASE_MS })).toEqual([]);
  });

  it('leaves a retry still out after the grace to a survivor: not failed here, its round resent there once its lease lapsed', async () => {
    const store = new MemoryRoundStore();
    const handler = createMrtrHandler();
    const held = holdRetries();
    const hub = replica(handler, store, 'r1', held, 1);
    const { state } = startCall(hub);
    await held.sent;
    await hub.close();
    const later = Date.now() + ROUND_LEASE_MS + 1;
    const [round, ...more] = await store.takeOver({ claimant: 'r2', now: later, leaseMs: ROUND_LEASE_MS });
    expect(more).toEqual([]);
    if (round === undefined) throw new Error('the round was dropped, not left to a survivor');
    expect(round).toMatchObject({ holder: 'r1', claimant: 'r2', round: 1 });
    const survivor = replica(handler, store, 'r2');
    const { resume } = resumedCall(round);
    const resumed = await survivor.callTool({
      server: 'modern',
      tool: 'three_requests',
      args: {},
      origin,
      resume,
    });
    expect(resumed.text).toBe(RESULT);
    expect(await store.get(round.id)).toBeUndefined();
    expect(state.ended).toBe(false);
  });
});
