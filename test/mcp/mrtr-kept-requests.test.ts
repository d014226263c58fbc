// A durable 2026 round kept each `inputRequests` entry in Redis as the server sent it: a server could park megabytes
// per request (a message longer than anyone is shown, `_meta`, fields nobody reads), 50 requests a round. A round
// now keeps each request as the relay reads it (round-bounds.ts keptRequest: the message cut as the question shows
// it, only the params the relay reads), and refuses, before anything is kept or asked, a round whose kept requests
// would take over ROUND_REQUESTS_MAX_BYTES, naming the largest part's field path. A kept request is still a
// request the previous release's reader splits answers from, and that reader's rounds are still read alike.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { roundAnswersOf } from '../../src/mcp/continuation.js';
import { parseElicitation } from '../../src/mcp/elicitation.js';
import { keptRequest, ROUND_REQUESTS_MAX_BYTES } from '../../src/mcp/round-bounds.js';
import { McpClientError } from '../../src/mcp/types.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { CONFIRM, inputRequired, origin, scriptedHandler, scriptedHub, text } from './mrtr-scripted.js';
import { redisRoundStores } from '../support/redis-rounds.js';

const redisStores = redisRoundStores('kept');

/** The most of a message a question shows (elicitation.ts SHOWN_MESSAGE_MAX: 9 sections of 3000). */
const SHOWN_MESSAGE_MAX = 27_000;
const MB = 1024 * 1024;

/** The call's result text, or its failure's code and message. */
const outcomeOf = (call: Promise<{ text: string }>) =>
  call.then(
    (result) => ['result', result.text],
    (error: unknown) =>
      error instanceof McpClientError ? [error.code, error.message] : ['thrown', String(error)],
  );

/**
 * Runs a durable call of `t`, whose first leg asks `inputRequests` and whose retry answers 'done'; `kept` is the
 * round's requests hash as Redis holds it when the first question is asked.
 */
async function durableCall(inputRequests: Parameters<typeof inputRequired>[0]['inputRequests']) {
  const first = inputRequired({ inputRequests });
  const { handler, legs } = scriptedHandler({ t: (n) => (n === 0 ? first : text('done')) });
  const { store, redis, k, openRounds, written } = await redisStores();
  const rounds = roundKeeper({
    store,
    claimant: 'r1',
    clock: systemClock,
    logger: { warn: () => undefined },
  });
  let kept: Record<string, string> | undefined;
  const { hub, sink } = scriptedHub(
    handler,
    async () => {
      const [id = ''] = await openRounds();
      kept ??= await redis.hgetall(k.roundRequests(id));
      return { action: 'accept', content: { ok: true } };
    },
    rounds,
  );
  const outcome = await outcomeOf(
    hub.callTool({ server: 'modern', tool: 't', args: {}, origin, durable: true }),
  );
  return { outcome, sink, kept, written: await written(), legs: legs['t'] ?? [] };
}

describe('what a durable 2026 round keeps of its requests', () => {
  it('keeps a request with megabytes of params as the relay reads it, and goes on', async () => {
    const message = 'M'.repeat(3 * MB);
    // Built apart, so the fields the SDK's types do not name (`notes`) pass as they would over the wire.
    const params = {
      mode: 'form' as const,
      message,
      requestedSchema: CONFIRM,
      _meta: { junk: 'j'.repeat(MB) },
      notes: 'n'.repeat(MB),
    };
    const request = { method: 'elicitation/create' as const, params };
    const { outcome, sink, kept } = await durableCall({ confirm: request });
    expect(outcome).toEqual(['result', 'done']);
    expect(sink.asked).toHaveLength(1);
    const stored = kept?.['confirm'] ?? '';
    expect(Buffer.byteLength(stored)).toBeLessThan(SHOWN_MESSAGE_MAX + 1000);
    const shown = sink.asked[0]?.request.message ?? '';
    expect(shown).toHaveLength(SHOWN_MESSAGE_MAX);
    expect(JSON.parse(stored)).toEqual({
      method: 'elicitation/create',
      params: { mode: 'form', message: shown, requestedSchema: CONFIRM },
    });
  });

  it('refuses a round whose kept requests are over 512 KiB, naming the largest part, before keeping or asking', async () => {
    // Ten questions of 27,000 "€" (3 bytes each): every message shown whole, 810 kB together.
    const ask = (i: number) =>
      inputRequired.elicit({ message: '€'.repeat(SHOWN_MESSAGE_MAX - i), requestedSchema: CONFIRM });
    const inputRequests = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`q${i + 1}`, ask(i)]));
    const { outcome, sink, written, legs } = await durableCall(inputRequests);
    expect(outcome[0]).toBe('tool_failed');
    expect(outcome[1]).toMatch(
      new RegExp(
        `^modern asked round 1 of t for requests that take \\d{6} bytes as this client keeps them, over the limit ` +
          `of ${ROUND_REQUESTS_MAX_BYTES} bytes \\(512 KiB\\); the largest part is ` +
          `inputRequests\\["q1"\\]\\.params\\.message \\(${3 * SHOWN_MESSAGE_MAX + 2} bytes\\)$`,
      ),
    );
    expect(sink.asked).toHaveLength(0);
    expect(written).toEqual([]);
    expect(legs).toHaveLength(1);
  });
});

describe('a round’s requests across a rolling upgrade', () => {
  const a = { message: 'First?', requestedSchema: CONFIRM };
  const b = {
    message: 'Second?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  };
  /** As the previous release kept them: the entries as sent, `_meta` and unknown fields included. */
  const sent = [
    { key: 'a', request: { method: 'elicitation/create', params: { ...a, _meta: { x: 1 }, notes: 'n' } } },
    { key: 'b', request: { method: 'elicitation/create', params: { ...b, mode: 'form' } } },
  ];
  const kept = sent.map(({ key, request }) => ({
    key,
    request: keptRequest(parseElicitation(request.params)),
  }));
  const question = {
    requestedSchema: {
      type: 'object',
      properties: { '1.ok': CONFIRM.properties.ok, '2.name': { type: 'string', title: 'name' } },
    },
    outcome: { action: 'accept' as const, content: { '1.ok': true, '2.name': 'Ada' } },
  };
  const answers = [
    ['a', { action: 'accept', content: { ok: true } }],
    ['b', { action: 'accept', content: { name: 'Ada' } }],
  ];

  it('splits one form’s answer per request from requests kept by either release alike', () => {
    expect(roundAnswersOf(question, sent)).toEqual(answers);
    expect(roundAnswersOf(question, kept)).toEqual(answers);
  });
});
