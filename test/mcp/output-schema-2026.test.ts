// A 2026-07-28 tool's outputSchema, checked against the call's final result (MCP: clients SHOULD). A 2026 call
// runs through the hub's input rounds (rounds.ts), which hand the SDK the inputSchema only, so no result of it was
// ever checked: structuredContent that broke the schema reached the person as if it were the tool's answer. Now
// the final result (never an input_required round's) is checked as a 2025 call's is, in the same words, also when
// a survivor resumes a durable round. A real SDK 2.x server (createMcpHandler) over Streamable HTTP in process,
// whose tools/list carries the outputSchema while its McpServer checks none of the results it sends.
import { describe, expect, it } from 'vitest';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { systemClock } from '../../src/clock.js';
import { McpClientError } from '../../src/mcp/types.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { MemoryRoundStore } from '../../src/rounds/memory-store.js';
import { resumedCall } from '../../src/rounds/take-over.js';
import {
  CONFIRM,
  inputRequired,
  origin,
  scriptedHub,
  type Leg,
  type Reply,
  type Script,
} from './mrtr-scripted.js';

const OUTPUT = { type: 'object' as const, properties: { n: { type: 'number' } }, required: ['n'] };
const RIGHT = { content: [{ type: 'text' as const, text: 'seven' }], structuredContent: { n: 7 } };
const WRONG = { content: [{ type: 'text' as const, text: 'seven' }], structuredContent: { n: 'seven' } };
const MISMATCH = {
  code: 'tool_failed',
  message:
    'tool measured on modern returned structuredContent that does not match its outputSchema (data/n must be number)',
};

/** The first leg asks to confirm (requestState 'sealed'); the retry is answered `final`. */
const afterOneRound =
  (final: Reply): Script =>
  (n) =>
    n === 0
      ? inputRequired({
          inputRequests: { ok: inputRequired.elicit({ message: 'OK?', requestedSchema: CONFIRM }) },
          requestState: 'sealed',
        })
      : final;

/**
 * A 2026-only server whose one tool, `measured`, is listed with OUTPUT as its outputSchema and answers each leg
 * by `script`; `legs` holds the legs as they came. The tool is registered without the schema (so the SDK's
 * McpServer checks nothing it sends) and the listing replaced by one that carries it.
 */
function measuredServer(script: Script) {
  const legs: Leg[] = [];
  const handler = createMcpHandler(
    () => {
      const mcp = new McpServer({ name: 'measured-2026', version: '1.0.0' }, { capabilities: { tools: {} } });
      mcp.registerTool('measured', { description: 'measured' }, (ctx) => {
        const state: unknown = ctx.mcpReq.requestState();
        const leg = {
          inputResponses: ctx.mcpReq.inputResponses,
          requestState: typeof state === 'string' ? state : undefined,
        };
        legs.push(leg);
        return Promise.resolve(script(legs.length - 1, leg));
      });
      const listed = { name: 'measured', inputSchema: { type: 'object' as const }, outputSchema: OUTPUT };
      mcp.server.setRequestHandler('tools/list', () => ({ tools: [listed] }));
      return mcp;
    },
    { legacy: 'reject' },
  );
  return { handler, legs };
}

/** How a call ends, as a person reads it: its text and structured content, or its error's code and words. */
const ended = (result: Promise<{ text: string; structured?: unknown }>) =>
  result.then(
    ({ text, structured }) => ({ text, structured }),
    (error: unknown) => ({
      code: error instanceof McpClientError ? error.code : undefined,
      message: error instanceof Error ? error.message : String(error),
    }),
  );

const accept = () => ({ action: 'accept' as const, content: { ok: true } });
const measured = { server: 'modern', tool: 'measured', args: {}, origin };

describe("a 2026-07-28 call's final result against the listed outputSchema", () => {
  it('fails a result that breaks it, saying what does not match', async () => {
    const { handler, legs } = measuredServer(() => WRONG);
    const { hub } = scriptedHub(handler, accept);
    expect(await ended(hub.callTool(measured))).toEqual(MISMATCH);
    expect(hub.status()[0]?.protocolVersion).toBe('2026-07-28');
    expect(legs, 'the server ran it').toHaveLength(1);
  });

  it('fails a result without structuredContent, as a 2025 call is failed', async () => {
    const { handler } = measuredServer(() => ({ content: [{ type: 'text', text: 'seven' }] }));
    const { hub } = scriptedHub(handler, accept);
    expect(await ended(hub.callTool(measured))).toEqual({
      code: 'tool_failed',
      message: 'tool measured on modern returned no structuredContent, which its outputSchema requires',
    });
  });

  it('asks the round (its input_required result unchecked) and fails the final result that breaks it', async () => {
    const { handler, legs } = measuredServer(afterOneRound(WRONG));
    const { hub, sink } = scriptedHub(handler, accept);
    expect(await ended(hub.callTool(measured))).toEqual(MISMATCH);
    expect(sink.asked.map(({ request }) => request.message)).toEqual(['OK?']);
    expect(legs[1]).toEqual({ requestState: 'sealed', inputResponses: { ok: accept() } });
  });

  it('passes a final result that matches it, after a round, unchanged', async () => {
    const { handler, legs } = measuredServer(afterOneRound(RIGHT));
    const { hub } = scriptedHub(handler, accept);
    expect(await ended(hub.callTool(measured))).toEqual({ text: 'seven', structured: { n: 7 } });
    expect(legs).toHaveLength(2);
  });

  it('fails the final result of a durable round resumed by a survivor, and drops the round', async () => {
    const { handler, legs } = measuredServer(() => WRONG);
    const store = new MemoryRoundStore();
    const rounds = roundKeeper({
      store,
      claimant: 'r2',
      clock: systemClock,
      logger: { warn: () => undefined },
    });
    const { hub } = scriptedHub(handler, accept, rounds);
    const request = { method: 'elicitation/create', params: { message: 'OK?', requestedSchema: CONFIRM } };
    const opened = await store.open({
      ...measured,
      requestState: 'sealed',
      requests: [{ key: 'ok', request }],
      round: 1,
      deadline: Date.now() + 60_000,
      holder: 'r1',
    });
    const claim = { claimant: 'r2', now: Date.now(), leaseMs: 15_000 };
    expect(await store.answer(opened.id, 1, 'ok', accept(), claim)).toBe('claimed');
    const round = await store.get(opened.id);
    if (round === undefined) throw new Error('round gone');
    expect(await ended(hub.callTool(resumedCall(round)))).toEqual(MISMATCH);
    expect(legs, 'the retry was sent with the recorded answer').toEqual([
      { requestState: 'sealed', inputResponses: { ok: accept() } },
    ]);
    expect(await store.get(opened.id), 'the call ended: its round goes').toBeUndefined();
  });
});
