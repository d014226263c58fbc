// The era verdict a server's link keeps (src/mcp/era.ts) so that sessions skip the probe, and how it is kept
// fresh: a server upgraded in place from 2025 to 2026-07-28 while the control link stays up (a rolling deploy of
// a stateless HTTP server: a v2 server still answers the 2025 control link's pings) is spoken to in 2026 by later
// sessions, at once when it refuses a 2025 client with the SDK's UnsupportedProtocolVersion, else once the
// verdict's time is up; and a durable round taken over while the verdict says 2025 probes before it is judged.
import { describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport, type PriorDiscovery } from '@modelcontextprotocol/client';
import { McpHub } from '../../src/mcp/hub.js';
import { ERA_VERDICT_TTL_MS, EraVerdict } from '../../src/mcp/era.js';
import { systemClock } from '../../src/clock.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { MemoryRoundStore } from '../../src/rounds/memory-store.js';
import { resumedCall } from '../../src/rounds/take-over.js';
import { createMrtrHandler } from '../fixtures/mrtr-server.js';
import { recordingSink } from './support.js';
import { scriptedHandler, text, type Script } from './mrtr-scripted.js';
import type { DurableRounds } from '../../src/mcp/types.js';

type Handler = { fetch: (request: Request) => Promise<Response> };

/** Until `upgrade()`, a 2025 server (`server/discover` is unknown to it: -32601) serving `before`; then `after`. */
function upgradedInPlace(before: Handler, after: Handler = before) {
  let upgraded = false;
  const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (upgraded) return after.fetch(new Request(url, init));
    const rpc: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (typeof rpc === 'object' && rpc !== null && 'method' in rpc && rpc.method === 'server/discover') {
      const id = 'id' in rpc ? rpc.id : null;
      const error = { code: -32601, message: 'Method not found' };
      const headers = { 'content-type': 'application/json' };
      return new Response(JSON.stringify({ jsonrpc: '2.0', id, error }), { status: 200, headers });
    }
    return before.fetch(new Request(url, init));
  };
  return { fetch, upgrade: () => (upgraded = true) };
}

const ada = () => ({ action: 'accept' as const, content: { name: 'Ada', ok: true } });
const person = (userId: string) => ({ userId, teamId: 'T1', channelId: `D-${userId}` });

/** A hub on `fetch` whose clock's time moves only by `advance`. */
function eraHub(fetch: (url: string | URL, init?: RequestInit) => Promise<Response>, rounds?: DurableRounds) {
  let now = Date.now();
  const sink = recordingSink(ada);
  const hub = new McpHub({
    servers: [
      {
        name: 'modern',
        transport: { kind: 'http', url: 'http://era.test/mcp', headers: {} },
        elicitationTimeoutMs: 60_000,
      },
    ],
    sink,
    clock: { now: () => now },
    ...(rounds === undefined ? {} : { rounds }),
    connect: () => new StreamableHTTPClientTransport(new URL('http://era.test/mcp'), { fetch }),
  });
  return { hub, sink, advance: (ms: number) => (now += ms) };
}

describe('era verdict: a server upgraded in place from 2025 to 2026', () => {
  it('is spoken to in 2026 by sessions opened once the verdict’s time is up, idle 2025 sessions closed', async () => {
    const server = upgradedInPlace(createMrtrHandler());
    const { hub, sink, advance } = eraHub(server.fetch);
    const call = (userId: string) =>
      hub.callTool({ server: 'modern', tool: 'two_rounds', args: {}, origin: person(userId) });
    try {
      await hub.listTools('modern'); // the control link connects: 2025, as the server then was
      expect(hub.status()[0]?.protocolVersion).toBe('2025-11-25');
      server.upgrade();
      // Within the verdict's time the stateless server's refusal (isError, its text all it says) is the answer.
      expect(await call('U1')).toMatchObject({ isError: true });
      expect(sink.asked).toHaveLength(0);
      advance(ERA_VERDICT_TTL_MS);
      expect(await call('U2')).toMatchObject({ isError: false, text: 'Hello, Ada!' });
      expect(sink.asked).toHaveLength(2);
      expect(hub.status()[0]?.protocolVersion).toBe('2026-07-28');
      // U1's idle 2025 session went when the probe found 2026: their next call opens a 2026 session.
      expect(await call('U1')).toMatchObject({ isError: false, text: 'Hello, Ada!' });
    } finally {
      await hub.close();
    }
  });

  it('forgets the verdict when a 2025 session is refused as such (-32022), and sends the call again on a probed session', async () => {
    const tools: Record<string, Script> = { echo: () => text('echoed') };
    const stateless = scriptedHandler(tools);
    const strict = scriptedHandler(tools, 'reject');
    const server = upgradedInPlace(stateless.handler, strict.handler);
    const { hub } = eraHub(server.fetch);
    const call = () => hub.callTool({ server: 'modern', tool: 'echo', args: {}, origin: person('U1') });
    try {
      expect(await call()).toMatchObject({ text: 'echoed' }); // a 2025 session, left idle in U1's pool
      expect(hub.status()[0]?.protocolVersion).toBe('2025-11-25');
      server.upgrade(); // now a 2026-only server: it refuses 2025 requests with HTTP 400, JSON-RPC -32022
      expect(await call()).toMatchObject({ isError: false, text: 'echoed' });
      expect(strict.legs['echo']).toHaveLength(1);
      expect(hub.status()[0]?.protocolVersion).toBe('2026-07-28');
    } finally {
      await hub.close();
    }
  });

  it('probes before resuming a durable round while the verdict says 2025, and sends its retry in 2026', async () => {
    const { handler, legs } = scriptedHandler({ echo: () => text('echoed'), deploy: () => text('deployed') });
    const server = upgradedInPlace(handler);
    const store = new MemoryRoundStore();
    const logger = { warn: () => undefined };
    const rounds = roundKeeper({ store, claimant: 'r2', clock: systemClock, logger });
    const { hub } = eraHub(server.fetch, rounds);
    try {
      await hub.callTool({ server: 'modern', tool: 'echo', args: {}, origin: person('U1') }); // 2025, idle
      server.upgrade();
      const opened = await store.open({
        server: 'modern',
        tool: 'deploy',
        args: {},
        origin: person('U1'),
        requestState: 'sealed',
        requests: [{ key: 'ok', request: { method: 'elicitation/create', params: { message: 'Deploy?' } } }],
        round: 1,
        deadline: Date.now() + 60_000,
        holder: 'r1',
      });
      const claim = { claimant: 'r2', now: Date.now(), leaseMs: 15_000 };
      expect(await store.answer(opened.id, 1, 'ok', { action: 'accept', content: {} }, claim)).toBe(
        'claimed',
      );
      const round = await store.get(opened.id);
      if (round === undefined) throw new Error('round gone');
      expect(await hub.callTool(resumedCall(round))).toMatchObject({ isError: false, text: 'deployed' });
      expect(legs['deploy']).toEqual([
        { requestState: 'sealed', inputResponses: { ok: { action: 'accept', content: {} } } },
      ]);
      expect(await store.get(opened.id)).toBeUndefined();
    } finally {
      await hub.close();
    }
  });
});

describe('EraVerdict', () => {
  const legacy: PriorDiscovery = { kind: 'legacy' };
  const judged = (era: PriorDiscovery | undefined) => Promise.resolve({ era });

  it('lets every connection probe while there is no verdict, then connects from the one found', async () => {
    const verdict = new EraVerdict(
      () => 0,
      () => undefined,
    );
    const priors: (PriorDiscovery | undefined)[] = [];
    const open = (prior: PriorDiscovery | undefined) => (priors.push(prior), judged(legacy));
    await Promise.all([verdict.connect(open), verdict.connect(open)]);
    await verdict.connect(open);
    expect(priors).toEqual([undefined, undefined, legacy]);
  });

  it('has one connection probe again once the verdict’s time is up, the others keeping it meanwhile', async () => {
    let now = 0;
    let changed = 0;
    const verdict = new EraVerdict(
      () => now,
      () => (changed += 1),
    );
    await verdict.connect(() => judged(legacy));
    now = ERA_VERDICT_TTL_MS - 1;
    const priors: (PriorDiscovery | undefined)[] = [];
    await verdict.connect((prior) => (priors.push(prior), judged(legacy)));
    now = ERA_VERDICT_TTL_MS;
    let probed = (): void => undefined;
    const modern: PriorDiscovery = {
      kind: 'modern',
      discover: { supportedVersions: ['2026-07-28'], capabilities: {} },
    };
    const probing = verdict.connect(
      (prior) => (
        priors.push(prior),
        new Promise<{ era: PriorDiscovery }>((r) => (probed = () => r({ era: modern })))
      ),
    );
    await verdict.connect((prior) => (priors.push(prior), judged(prior)));
    probed();
    await probing;
    await verdict.connect((prior) => (priors.push(prior), judged(prior)));
    expect(priors).toEqual([legacy, undefined, legacy, modern]);
    expect(changed).toBe(1);
    now += ERA_VERDICT_TTL_MS - 1;
    await verdict.connect((prior) => (priors.push(prior), judged(prior)));
    expect(priors.at(-1)).toEqual(modern);
  });

  it('forgets the verdict when a connection fails, and when doubted for the era it says', async () => {
    const verdict = new EraVerdict(
      () => 0,
      () => undefined,
    );
    const priors: (PriorDiscovery | undefined)[] = [];
    const open = (prior: PriorDiscovery | undefined) => (priors.push(prior), judged(legacy));
    await verdict.connect(open);
    await expect(verdict.connect(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await verdict.connect(open);
    expect(verdict.doubt('modern')).toBe(false);
    await verdict.connect(open);
    expect(verdict.doubt('legacy')).toBe(true);
    await verdict.connect(open);
    expect(priors).toEqual([undefined, undefined, legacy, undefined]);
  });
});
