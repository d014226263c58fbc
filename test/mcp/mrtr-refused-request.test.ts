// A 2026 round's request that the bot cannot ask (a form the blocks cannot draw, a question limit reached) fails the
// call. A 2025 server gets such a refusal as the JSON-RPC error of its elicitation/create, with its reason; a 2026
// round has no per-request error, so the call's failure is where the person (and an API caller) learns it: it names
// the request and the reason, and is not dressed as a JSON-RPC error the server never sent. A request invalid as
// sent is refused before any other request of its round is asked, so no card is posted only to be withdrawn.
import { describe, expect, it } from 'vitest';
import type { InputRequest } from '@modelcontextprotocol/server';
import { systemClock } from '../../src/clock.js';
import { McpClientError } from '../../src/mcp/types.js';
import { RelayError } from '../../src/relay/errors.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { MemoryRoundStore, MemoryRounds } from '../../src/rounds/memory-store.js';
import { CONFIRM, inputRequired, origin, scriptedHandler, scriptedHub, text } from './mrtr-scripted.js';

/**
 * A form request whose one field is an array: no Slack form draws it (the bot refuses it -32602). Written as the
 * JSON a server sends, since the SDK's own types forbid it.
 */
const ARRAY_FORM = asSent(
  '{"method":"elicitation/create","params":{"mode":"form","message":"Tags?",' +
    '"requestedSchema":{"type":"object","properties":{"tags":{"type":"array"}}}}}',
);

/** An input request as JSON text: the SDK's server hands on any object with a method, its params unchecked. */
function asSent(json: string): InputRequest {
  const sent: unknown = JSON.parse(json);
  if (!isSent(sent)) throw new TypeError('not an input request');
  return sent;
}

function isSent(value: unknown): value is InputRequest {
  return typeof value === 'object' && value !== null && 'method' in value && 'params' in value;
}

const URL_REQUEST = inputRequired.elicitUrl({ message: 'Sign the form', url: 'https://forms.example/sign' });

/** How the call failed, as an API caller reads it. */
const failure = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) =>
      error instanceof McpClientError
        ? { code: error.code, rpcCode: error.rpcCode, message: error.message }
        : { thrown: String(error) },
  );

const wait = () => new Promise<never>(() => undefined);

describe('a 2026 round with a request the bot cannot ask', () => {
  it('asks none of the round’s requests and fails naming the request and why, not as a JSON-RPC error', async () => {
    const { handler, legs } = scriptedHandler({
      t: () =>
        inputRequired({
          inputRequests: {
            sign: URL_REQUEST,
            ok: inputRequired.elicit({ message: 'OK?', requestedSchema: CONFIRM }),
            tags: ARRAY_FORM,
          },
          requestState: 's1',
        }),
    });
    const { hub, sink } = scriptedHub(handler, wait);
    const failed = await failure(hub.callTool({ server: 'modern', tool: 't', args: {}, origin }));
    expect(failed).toEqual({
      code: 'tool_failed',
      rpcCode: undefined,
      message:
        'modern asked for input that could not be asked (request "tags" of round 1 of t): Invalid elicitation ' +
        'request: property "tags" is not supported (fields must be a flat string, number, integer, boolean or enum schema)',
    });
    expect(sink.asked).toEqual([]);
    expect(legs['t']).toHaveLength(1);
  });

  it('keeps nothing of a durable call’s refused round in the round store', async () => {
    const { handler } = scriptedHandler({
      t: () => inputRequired({ inputRequests: { tags: ARRAY_FORM }, requestState: 's1' }),
    });
    const shared = new MemoryRounds();
    const logger = { warn: () => undefined };
    const rounds = roundKeeper({
      store: new MemoryRoundStore(shared),
      claimant: 'r1',
      clock: systemClock,
      logger,
    });
    const { hub, sink } = scriptedHub(handler, wait, rounds);
    const failed = await failure(
      hub.callTool({ server: 'modern', tool: 't', args: {}, origin, durable: true }),
    );
    expect(failed).toMatchObject({ code: 'tool_failed', rpcCode: undefined });
    expect(sink.asked).toEqual([]);
    expect(shared.rounds.size).toBe(0);
  });

  it('fails with the question limit’s own words when the sink refuses one request of the round', async () => {
    const { handler } = scriptedHandler({
      t: (n) =>
        n === 0
          ? inputRequired({
              inputRequests: { ok: inputRequired.elicit({ message: 'OK?', requestedSchema: CONFIRM }) },
            })
          : text('done'),
    });
    const { hub } = scriptedHub(handler, () => {
      throw new RelayError('rate_limited', 'modern has 20 questions waiting, its most');
    });
    const failed = await failure(hub.callTool({ server: 'modern', tool: 't', args: {}, origin }));
    expect(failed).toEqual({
      code: 'tool_failed',
      rpcCode: undefined,
      message:
        'modern asked for input that could not be asked (request "ok" of round 1 of t): modern has 20 questions waiting, its most',
    });
  });

  it('names the requests of a combined form the sink refused', async () => {
    const { handler } = scriptedHandler({
      t: () =>
        inputRequired({
          inputRequests: {
            a: inputRequired.elicit({ message: 'A?', requestedSchema: CONFIRM }),
            b: inputRequired.elicit({ message: 'B?', requestedSchema: CONFIRM }),
          },
        }),
    });
    const { hub } = scriptedHub(handler, () => {
      throw new RelayError('rate_limited', 'too many waiting');
    });
    const failed = await failure(hub.callTool({ server: 'modern', tool: 't', args: {}, origin }));
    expect(failed).toMatchObject({
      message:
        'modern asked for input that could not be asked (requests "a", "b" of round 1 of t): too many waiting',
    });
  });
});
