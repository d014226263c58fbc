// A 2026-07-28 round whose connection is lost while a person answers it: the session's stdio process dies, or
// its Streamable HTTP session is lost. A 2026 server is stateless (the retry carries the requestState and the
// answers), so the question stays open, and the retry goes on a fresh session once the answers are in; a new
// process that refuses the state fails the call clearly (round_expired), never silently.
import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpHub } from '../../src/mcp/hub.js';
import { systemClock } from '../../src/clock.js';
import { roundKeeper, ROUND_LEASE_MS } from '../../src/rounds/keeper.js';
import { MemoryRoundStore } from '../../src/rounds/memory-store.js';
import type { DurableRounds, McpServerSpec, McpTransport } from '../../src/mcp/types.js';
import type { Outcome } from '../../src/relay/types.js';
import { createMrtrHandler } from '../fixtures/mrtr-server.js';
import { deferred, type Deferred } from '../support/deferred.js';
import { repoRoot, statusWatch, type Asked } from './support.js';

const origin = { userId: 'U1', teamId: 'T1', channelId: 'D1' };
const logger = { warn: () => undefined };
const stdioServer = fileURLToPath(new URL('./mrtr-stdio-server.ts', import.meta.url));

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

interface HeldQuestion extends Asked {
  answer: (outcome: Outcome) => void;
}

/** A sink whose questions wait until the test answers them; `next()` resolves with each as it is asked. */
function heldSink() {
  const asked: HeldQuestion[] = [];
  const waiting: Deferred<HeldQuestion>[] = [];
  let taken = 0;
  const arrival = (n: number): Deferred<HeldQuestion> => (waiting[n] ??= deferred<HeldQuestion>());
  return {
    asked,
    ask: (request: Asked['request'], ctx: Asked['ctx']): Promise<Outcome> => {
      const outcome = deferred<Outcome>();
      const question = { request, ctx, answer: outcome.resolve };
      arrival(asked.length).resolve(question);
      asked.push(question);
      return outcome.promise;
    },
    next: (): Promise<HeldQuestion> => arrival(taken++).promise,
  };
}

type Sink = ReturnType<typeof heldSink>;

function makeHub(
  spec: McpServerSpec,
  sink: Sink,
  more: { connect?: () => McpTransport; rounds?: DurableRounds; maxSessionsPerPerson?: number },
) {
  const watch = statusWatch();
  const hub = new McpHub({
    servers: [spec],
    sink,
    onStatus: watch.onStatus,
    ...(more.connect === undefined ? {} : { connect: more.connect }),
    ...(more.rounds === undefined ? {} : { rounds: more.rounds }),
    ...(more.maxSessionsPerPerson === undefined ? {} : { maxSessionsPerPerson: more.maxSessionsPerPerson }),
  });
  hubs.push(hub);
  return { hub, watch };
}

/** The in-process MRTR fixture over Streamable HTTP; `transports` are the client ends the hub opened. */
function httpFixture() {
  const handler = createMrtrHandler();
  const transports: McpTransport[] = [];
  const retries: string[] = [];
  const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === 'string' && init.body.includes('"inputResponses"')) retries.push(init.body);
    return handler.fetch(new Request(url, init));
  };
  const spec: McpServerSpec = {
    name: 'modern',
    transport: { kind: 'http', url: 'http://mrtr.test/mcp', headers: {} },
    elicitationTimeoutMs: 60_000,
  };
  const connect = (): McpTransport => {
    const transport = new StreamableHTTPClientTransport(new URL('http://mrtr.test/mcp'), { fetch });
    transports.push(transport);
    return transport;
  };
  return { spec, connect, transports, retries };
}

const stdioSpec = (env: Record<string, string>): McpServerSpec => ({
  name: 'modern',
  transport: {
    kind: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', stdioServer],
    env,
    cwd: repoRoot,
  },
  elicitationTimeoutMs: 60_000,
});

/** The pid of the stdio server process that asked `question` (it says so in its message). */
const askerOf = (question: Asked): number => Number(/pid (\d+)/.exec(question.request.message)?.[1]);

describe('a 2026 round whose Streamable HTTP session is lost while its question is open', () => {
  it('keeps the question open and sends the answers on a fresh session: the call goes on there', async () => {
    const fixture = httpFixture();
    const sink = heldSink();
    // One session a person: the lost one's place goes to the fresh one, which the call then gives back.
    const { hub } = makeHub(fixture.spec, sink, { connect: fixture.connect, maxSessionsPerPerson: 1 });
    const call = hub.callTool({ server: 'modern', tool: 'two_rounds', args: {}, origin });
    const name = await sink.next();
    await Promise.all(fixture.transports.map((transport) => transport.close()));
    expect(name.ctx.signal.aborted).toBe(false);
    name.answer({ action: 'accept', content: { name: 'Ada' } });
    const confirm = await Promise.race([
      sink.next(),
      call.then(() => Promise.reject(new Error('no round 2'))),
    ]);
    expect(confirm.request.message).toBe('Send a greeting to Ada?');
    confirm.answer({ action: 'accept', content: { ok: true } });
    expect((await call).text).toBe('Hello, Ada!');
    expect(fixture.retries).toHaveLength(2);
    const next = await hub.callTool({ server: 'modern', tool: 'echo', args: {}, origin });
    expect(next.text).toBe('echo');
  });

  it('keeps a durable round through it: the retry goes once, on the fresh session, and the round then ends', async () => {
    const fixture = httpFixture();
    const store = new MemoryRoundStore();
    const rounds = roundKeeper({ store, claimant: 'r1', clock: systemClock, logger });
    const sink = heldSink();
    const { hub } = makeHub(fixture.spec, sink, { connect: fixture.connect, rounds });
    const call = hub.callTool({ server: 'modern', tool: 'counted', args: {}, origin, durable: true });
    const [first, second] = [await sink.next(), await sink.next()];
    await Promise.all(fixture.transports.map((transport) => transport.close()));
    first.answer({ action: 'accept', content: { ok: true } });
    second.answer({ action: 'accept', content: {} });
    expect((await call).text).toBe('counted: retry 1 of this round; a accepted, b accepted');
    const later = Date.now() + ROUND_LEASE_MS + 1;
    expect(await store.takeOver({ claimant: 'r2', now: later, leaseMs: ROUND_LEASE_MS })).toEqual([]);
  });
});

describe('a 2026 round whose stdio server process dies while its question is open', () => {
  it('sends the answers to a new process of a stateless server, which gives the result', async () => {
    const sink = heldSink();
    const key = randomBytes(32).toString('hex');
    const { hub, watch } = makeHub(stdioSpec({ MRTR_STATE_KEY: key }), sink, {});
    const call = hub.callTool({ server: 'modern', tool: 'greet', args: {}, origin });
    const question = await sink.next();
    const asker = askerOf(question);
    const dropped = watch.next((status) => status.state === 'reconnecting');
    process.kill(asker, 'SIGKILL');
    await dropped;
    expect(question.ctx.signal.aborted).toBe(false);
    question.answer({ action: 'accept', content: { name: 'Ada' } });
    const { text } = await call;
    expect(text).toMatch(new RegExp(`^Hello, Ada! Asked by pid ${asker}, answered by pid \\d+$`));
    expect(text).not.toMatch(new RegExp(`answered by pid ${asker}$`));
  });

  it('fails the call as round_expired when the new process refuses the round’s state', async () => {
    const sink = heldSink();
    const { hub, watch } = makeHub(stdioSpec({}), sink, {});
    const call = hub.callTool({ server: 'modern', tool: 'greet', args: {}, origin });
    const question = await sink.next();
    const dropped = watch.next((status) => status.state === 'reconnecting');
    process.kill(askerOf(question), 'SIGKILL');
    await dropped;
    question.answer({ action: 'accept', content: { name: 'Ada' } });
    await expect(call).rejects.toMatchObject({ code: 'round_expired' });
  });
});
