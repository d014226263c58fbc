// A 2026 round's requestState, its number of inputRequests and their keys are the server's and unbounded by the
// spec; the client keeps all of them for the round's life (a durable call in Redis, echoing the state on every
// retry). A hostile server sent megabytes of requestState per round into Redis, or hundreds of requests (a card
// each). Over a bound (round-bounds.ts) the call now fails naming the size and the limit, before anything is
// recorded or anyone asked; at the bound it goes on as before.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { REQUEST_KEY_MAX, REQUEST_STATE_MAX_BYTES, ROUND_REQUESTS_MAX } from '../../src/mcp/round-bounds.js';
import { McpClientError } from '../../src/mcp/types.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { CONFIRM, inputRequired, origin, scriptedHandler, scriptedHub, text } from './mrtr-scripted.js';
import { redisRoundStores } from '../support/redis-rounds.js';

const redisStores = redisRoundStores('bounds');

/** A Redis round store under its own prefix, and every key written under that prefix. */
async function redisRounds() {
  const { store, written } = await redisStores();
  const rounds = roundKeeper({
    store,
    claimant: 'r1',
    clock: systemClock,
    logger: { warn: () => undefined },
  });
  return { rounds, written };
}

const ask = (message: string) => inputRequired.elicit({ message, requestedSchema: CONFIRM });

/** `n` requests keyed `q1`..`qn`. */
const requests = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i + 1}`, ask(`Question ${i + 1}?`)]));

/** The call's result text, or its failure's code and message. */
const outcomeOf = (call: Promise<{ text: string }>) =>
  call.then(
    (result) => ['result', result.text],
    (error: unknown) =>
      error instanceof McpClientError ? [error.code, error.message] : ['thrown', String(error)],
  );

/** Runs a durable call of `t`, whose first leg answers `first` and whose retry answers 'done'. */
async function durableCall(first: Parameters<typeof inputRequired>[0]) {
  const { handler, legs } = scriptedHandler({ t: (n) => (n === 0 ? inputRequired(first) : text('done')) });
  const { rounds, written } = await redisRounds();
  const { hub, sink } = scriptedHub(handler, () => ({ action: 'accept', content: { ok: true } }), rounds);
  const outcome = await outcomeOf(
    hub.callTool({ server: 'modern', tool: 't', args: {}, origin, durable: true }),
  );
  return { outcome, asked: sink.asked.length, written: await written(), legs: legs['t'] ?? [] };
}

describe('a 2026 round over the client’s bounds', () => {
  it('fails a call whose requestState is over 512 KiB, naming its size, before storing or asking anything', async () => {
    const state = 'x'.repeat(REQUEST_STATE_MAX_BYTES + 1);
    const { outcome, asked, written, legs } = await durableCall({
      inputRequests: requests(1),
      requestState: state,
    });
    expect(outcome).toEqual([
      'tool_failed',
      `modern sent round 1 of t with a requestState of ${REQUEST_STATE_MAX_BYTES + 1} bytes, over the limit of ` +
        `${REQUEST_STATE_MAX_BYTES} bytes (512 KiB) this client keeps`,
    ]);
    expect(asked).toBe(0);
    expect(written).toEqual([]);
    expect(legs).toHaveLength(1);
  });

  it('counts the requestState in UTF-8 bytes, as Redis keeps it, not in characters', async () => {
    // 3 bytes per "€": a third of the limit in characters, just over it in bytes.
    const chars = Math.floor(REQUEST_STATE_MAX_BYTES / 3) + 1;
    expect(chars).toBeLessThan(REQUEST_STATE_MAX_BYTES);
    const { outcome, asked } = await durableCall({ requestState: '€'.repeat(chars) });
    expect(outcome[0]).toBe('tool_failed');
    expect(outcome[1]).toContain(`a requestState of ${3 * chars} bytes`);
    expect(asked).toBe(0);
  });

  it('fails a call whose round asks more than 50 requests, before storing or asking any', async () => {
    const { outcome, asked, written } = await durableCall({
      inputRequests: requests(ROUND_REQUESTS_MAX + 1),
    });
    expect(outcome).toEqual([
      'tool_failed',
      `modern asked ${ROUND_REQUESTS_MAX + 1} requests in round 1 of t, over the limit of ${ROUND_REQUESTS_MAX} in one round`,
    ]);
    expect(asked).toBe(0);
    expect(written).toEqual([]);
  });

  it('fails a call whose round has a request key over 256 characters, showing its start', async () => {
    const key = 'k'.repeat(REQUEST_KEY_MAX + 1);
    const { outcome, asked, written } = await durableCall({ inputRequests: { [key]: ask('OK?') } });
    expect(outcome[0]).toBe('tool_failed');
    expect(outcome[1]).toMatch(
      new RegExp(
        `^modern asked round 1 of t under a request key of ${REQUEST_KEY_MAX + 1} characters \\("k{59}…"\\), over the limit of ${REQUEST_KEY_MAX}$`,
      ),
    );
    expect(asked).toBe(0);
    expect(written).toEqual([]);
  });

  it('keeps a round exactly at every bound and echoes its state whole', async () => {
    const state = 's'.repeat(REQUEST_STATE_MAX_BYTES);
    const key = 'k'.repeat(REQUEST_KEY_MAX);
    const inputRequests = { ...requests(ROUND_REQUESTS_MAX - 1), [key]: ask('Last?') };
    const { outcome, asked, legs } = await durableCall({ inputRequests, requestState: state });
    expect(outcome).toEqual(['result', 'done']);
    expect(asked).toBe(ROUND_REQUESTS_MAX);
    expect(legs[1]?.requestState === state).toBe(true);
    expect(Object.keys(legs[1]?.inputResponses ?? {})).toHaveLength(ROUND_REQUESTS_MAX);
  });

  it('bounds a call whose rounds live in memory alike', async () => {
    const { handler } = scriptedHandler({
      t: () => inputRequired({ requestState: 'x'.repeat(REQUEST_STATE_MAX_BYTES + 1) }),
    });
    const { hub } = scriptedHub(handler, () => ({ action: 'cancel' }));
    const [code, message] = await outcomeOf(hub.callTool({ server: 'modern', tool: 't', args: {}, origin }));
    expect(code).toBe('tool_failed');
    expect(message).toContain(`over the limit of ${REQUEST_STATE_MAX_BYTES} bytes`);
  });
});
