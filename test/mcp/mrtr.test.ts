// The hub against a 2026-07-28 server (test/fixtures/mrtr-server.ts, served in process through its fetch
// handler; the hub and its recording in mrtr-hub.ts): era negotiation lands on 'modern', and each
// `input_required` round's requests reach the sink as questions of the call that caused them, the SDK retrying
// with the answers until the result comes.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { MemoryRoundStore } from '../../src/rounds/memory-store.js';
import type { Content, Outcome } from '../../src/relay/types.js';
import { call, mrtrHubsClosedAfterEach, origin, stateIn } from './mrtr-hub.js';
import { inMemorySpec } from './support.js';

const makeHub = mrtrHubsClosedAfterEach();

describe('McpHub against a 2026-07-28 (MRTR) server', () => {
  it('negotiates 2026-07-28 with it and 2025-11-25 with a 2025 server in the same hub, and lists its tools', async () => {
    const { hub: h } = makeHub(() => ({ action: 'cancel' }), [inMemorySpec('legacy')]);
    const tools = await h.listTools('modern');
    expect(tools.map((t) => t.name).sort()).toEqual([
      'counted',
      'echo',
      'endless',
      'expiring',
      'routed',
      'three_requests',
      'two_rounds',
      'url_round',
      'url_steps',
    ]);
    await h.listTools('legacy');
    expect(h.status().map((s) => [s.server, s.state, s.protocolVersion])).toEqual([
      ['modern', 'connected', '2026-07-28'],
      ['legacy', 'connected', '2025-11-25'],
    ]);
  });

  it('answers two rounds, each question carrying the call’s origin, then returns the result', async () => {
    const { hub: h, sink } = makeHub(({ request }): Outcome => {
      const content: Content = request.message === 'Your name?' ? { name: 'Ada' } : { ok: true };
      return { action: 'accept', content };
    });
    const result = await call(h, 'two_rounds');
    expect(result).toMatchObject({ isError: false, text: 'Hello, Ada!' });
    expect(sink.asked.map((a) => a.request.message)).toEqual(['Your name?', 'Send a greeting to Ada?']);
    expect(sink.asked.map((a) => a.ctx.origin)).toEqual([origin, origin]);
  });

  it('asks the three form requests of one round as one question, a section each, and splits its answer back by key', async () => {
    const { hub: h, sink } = makeHub(() => ({
      action: 'accept',
      content: { '1.name': 'Ada', '2.age': 36, '3.colour': 'green' },
    }));
    const result = await call(h, 'three_requests');
    expect(result.text).toBe('name=Ada age=36 colour=green');
    expect(sink.asked).toHaveLength(1);
    const [asked] = sink.asked;
    expect(asked?.request).toMatchObject({
      mode: 'form',
      message: '1. Name?\n2. Age?\n3. Colour?',
      requestedSchema: {
        type: 'object',
        properties: {
          '1.name': { type: 'string', title: 'Name' },
          '2.age': { type: 'integer', title: 'Age', minimum: 0 },
          '3.colour': { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] },
        },
        required: ['1.name', '2.age', '3.colour'],
        'x-elicit-relay-sections': [
          { message: 'Name?', properties: ['1.name'] },
          { message: 'Age?', properties: ['2.age'] },
          { message: 'Colour?', properties: ['3.colour'] },
        ],
      },
    });
    expect(asked?.ctx.origin).toEqual(origin);
  });

  it('records the one combined answer of a durable round key by key, the last key claiming the retry', async () => {
    const store = new MemoryRoundStore();
    const recorded: [string, unknown, string][] = [];
    const answer = store.answer.bind(store);
    store.answer = async (id, round, key, value, claim) => {
      const result = await answer(id, round, key, value, claim);
      recorded.push([key, value, result]);
      return result;
    };
    const logger = { warn: () => undefined };
    const rounds = roundKeeper({ store, claimant: 'r1', clock: systemClock, logger });
    const content = { '1.name': 'Ada', '2.age': 36, '3.colour': 'green' };
    const { hub: h, sink } = makeHub(() => ({ action: 'accept', content }), [], undefined, 10, rounds);
    const result = await h.callTool({
      server: 'modern',
      tool: 'three_requests',
      args: {},
      origin,
      durable: true,
    });
    expect(result.text).toBe('name=Ada age=36 colour=green');
    expect(sink.asked).toHaveLength(1);
    expect(recorded).toEqual([
      ['name', { action: 'accept', content: { name: 'Ada' } }, 'recorded'],
      ['age', { action: 'accept', content: { age: 36 } }, 'recorded'],
      ['colour', { action: 'accept', content: { colour: 'green' } }, 'claimed'],
    ]);
  });

  it('sends a decline back, and the server’s answer to it is the result', async () => {
    const { hub: h, sink } = makeHub(() => ({ action: 'decline' }));
    expect((await call(h, 'two_rounds')).text).toBe('name declined in round 1');
    expect(sink.asked).toHaveLength(1);
  });

  it('asks a URL-mode request (no elicitationId in 2026: the hub names it) and accept finishes the call', async () => {
    const { hub: h, sink } = makeHub(() => ({ action: 'accept', content: {} }));
    expect((await call(h, 'url_round')).text).toBe('account linked');
    const [asked] = sink.asked;
    expect(asked?.request).toMatchObject({ mode: 'url', url: 'https://example.com/link?flow=mrtr' });
    expect(asked?.request.mode === 'url' ? asked.request.elicitationId : '').toMatch(/^mrtr:/);
  });

  it('asks a 2026 URL request again while the server says its flow is not finished, each accept a retry', async () => {
    const { hub: h, sink, exchanges } = makeHub(() => ({ action: 'accept', content: {} }));
    expect((await call(h, 'url_steps')).text).toBe('account linked after 2 checks');
    expect(sink.asked.map((a) => a.request.mode)).toEqual(['url', 'url']);
    expect(exchanges.map((e) => e.sent.params.inputResponses?.['link'])).toEqual([
      undefined,
      { action: 'accept' },
      { action: 'accept' },
    ]);
    // One id for the request in both rounds (the relay keeps one card for it), settled when the call ended.
    const ids = sink.asked.map((a) => (a.request.mode === 'url' ? a.request.elicitationId : ''));
    expect(ids[0]).toMatch(/^mrtr:[0-9a-f-]{36}:link$/);
    expect(ids[1]).toBe(ids[0]);
    expect(sink.settled).toEqual([[ids[0]]]);
  });

  it('names a durable call’s URL request after its continuation, which any replica resuming it shares', async () => {
    const store = new MemoryRoundStore();
    const opened: string[] = [];
    const open = store.open.bind(store);
    store.open = async (round) => {
      const kept = await open(round);
      opened.push(kept.id);
      return kept;
    };
    const logger = { warn: () => undefined };
    const rounds = roundKeeper({ store, claimant: 'r1', clock: systemClock, logger });
    const accept = (): Outcome => ({ action: 'accept', content: {} });
    const { hub: h, sink } = makeHub(accept, [], undefined, 10, rounds);
    const result = await h.callTool({ server: 'modern', tool: 'url_steps', args: {}, origin, durable: true });
    expect(result.text).toBe('account linked after 2 checks');
    const ids = sink.asked.map((a) => (a.request.mode === 'url' ? a.request.elicitationId : ''));
    expect(opened).toHaveLength(1);
    expect(ids).toEqual([`mrtr:${opened[0]}:link`, `mrtr:${opened[0]}:link`]);
    expect(sink.settled).toEqual([[ids[0]]]);
  });

  it('ends a 2026 URL flow with the cancel its card answered', async () => {
    const { hub: h } = makeHub(() => ({ action: 'cancel' }));
    expect((await call(h, 'url_steps')).text).toBe('link cancelled');
  });

  it('fails the call as round_expired, with the server’s -32602, when the round’s requestState has expired by the retry', async () => {
    const { hub: h, sink } = makeHub(() => ({ action: 'accept', content: { ok: true } }), [], -1);
    await expect(call(h, 'expiring')).rejects.toMatchObject({
      code: 'round_expired',
      rpcCode: -32602,
      message:
        'modern no longer accepts the answers to round 1 of expiring: it says its request state is invalid or expired',
    });
    expect(sink.asked).toHaveLength(1);
  });

  it('sends each retry as a new request: new id, answers keyed as requested, requestState byte for byte', async () => {
    const { hub: h, exchanges } = makeHub((): Outcome => ({
      action: 'accept',
      content: { name: 'Ada', ok: true },
    }));
    expect((await call(h, 'two_rounds')).text).toBe('Hello, Ada!');
    expect(exchanges).toHaveLength(3);
    const [first, second, third] = exchanges.map((e) => e.sent);
    expect(new Set(exchanges.map((e) => e.sent.id)).size).toBe(3);
    expect(first?.params).not.toHaveProperty('requestState');
    expect(first?.params).not.toHaveProperty('inputResponses');
    expect(Object.keys(second?.params.inputResponses ?? {})).toEqual(['name']);
    expect(Object.keys(third?.params.inputResponses ?? {})).toEqual(['confirm']);
    expect(JSON.stringify(second?.params.requestState)).toBe(stateIn(exchanges[0]?.answered ?? ''));
    expect(JSON.stringify(third?.params.requestState)).toBe(stateIn(exchanges[1]?.answered ?? ''));
  });

  it('sends no requestState back when the round had none, and every key of a three-request round', async () => {
    const { hub: h, exchanges } = makeHub(() => ({ action: 'decline' }));
    expect((await call(h, 'three_requests')).text).toBe('name=declined age=declined colour=declined');
    expect(exchanges[1]?.sent.params).not.toHaveProperty('requestState');
    expect(Object.keys(exchanges[1]?.sent.params.inputResponses ?? {}).sort()).toEqual([
      'age',
      'colour',
      'name',
    ]);
  });

  it('mirrors an x-mcp-header argument into Mcp-Param-Region on every leg, through a round of a tool with an outputSchema', async () => {
    const { hub: h, sink, exchanges } = makeHub(() => ({ action: 'accept', content: { ok: true } }));
    await h.listTools('modern');
    const result = await h.callTool({
      server: 'modern',
      tool: 'routed',
      args: { region: 'eu-west' },
      origin,
    });
    expect(result).toMatchObject({ isError: false, text: 'routed to eu-west: true' });
    expect(sink.asked.map((a) => a.request.message)).toEqual(['Route to eu-west?']);
    expect(exchanges.map((e) => e.region)).toEqual(['eu-west', 'eu-west']);
  });

  it('fails the call, saying so, once the server still asks after maxRounds retries', async () => {
    const { hub: h, sink } = makeHub(() => ({ action: 'accept', content: { ok: true } }), [], undefined, 2);
    await expect(call(h, 'endless')).rejects.toMatchObject({
      code: 'tool_failed',
      message: 'endless on modern still asked for input after 2 rounds, the most allowed',
    });
    expect(sink.asked).toHaveLength(2);
  });

  it('withdraws the round’s questions with call_ended when the caller abandons the call', async () => {
    const abandon = new AbortController();
    const { hub: h, sink } = makeHub(() => {
      abandon.abort();
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const calling = h.callTool({
      server: 'modern',
      tool: 'two_rounds',
      args: {},
      origin,
      signal: abandon.signal,
    });
    await expect(calling).rejects.toMatchObject({ code: 'aborted' });
    expect(sink.asked.map((a) => a.ctx.signal.reason as unknown)).toEqual(['call_ended']);
  });
});
