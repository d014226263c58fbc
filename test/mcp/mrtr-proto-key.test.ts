// A 2026 round's request keys are the server's strings, and the retry's inputResponses must be keyed exactly as
// the inputRequests were (spec 2026-07-28), "__proto__" and "constructor" included: JSON allows them as keys. The
// answer to such a key goes back as an own property of inputResponses, on the call's own retry and on a survivor's
// (the round store keeps it), so a server that reads its JSON as data gets it. (A server built on the TypeScript
// SDK 2.4 still loses "__proto__" when it parses inputResponses; that is its own parse, read off the wire here.)
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { MemoryRoundStore } from '../../src/rounds/index.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { resumedCall } from '../../src/rounds/take-over.js';
import type { RoundStore } from '../../src/rounds/types.js';
import type { Asked } from './support.js';
import { CONFIRM, inputRequired, origin, scriptedHandler, scriptedHub, text } from './mrtr-scripted.js';
import { redisRoundStores } from '../support/redis-rounds.js';

const redisStores = redisRoundStores('proto');
const redisStore = async (): Promise<RoundStore> => (await redisStores()).store;

/** `inputRequests` with these keys as own properties (an object literal's `__proto__:` would set the prototype). */
function requestsKeyed(...names: string[]) {
  const requests = {};
  for (const name of names) {
    const request = inputRequired.elicit({ message: `${name}?`, requestedSchema: CONFIRM });
    Object.defineProperty(requests, name, {
      value: request,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return requests;
}

/**
 * A server asking `names` in one round; `retries` holds the inputResponses of each retry as they were on the wire
 * (parsed as plain JSON, which keeps "__proto__" an own key).
 */
function protoServer(names: string[]) {
  const { handler } = scriptedHandler({
    t: (n) =>
      n === 0 ? inputRequired({ inputRequests: requestsKeyed(...names), requestState: 's' }) : text('done'),
  });
  const retries: Record<string, unknown>[] = [];
  const wire = {
    fetch: async (request: Request) => {
      const body: unknown = JSON.parse((await request.clone().text()) || 'null');
      const params = isRecord(body) ? body['params'] : undefined;
      const responses = isRecord(params) ? params['inputResponses'] : undefined;
      if (isRecord(responses)) retries.push(responses);
      return handler.fetch(request);
    },
  };
  return { wire, retries };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const own = (value: Record<string, unknown> | undefined) =>
  Object.keys(value ?? {}).map((key) => [key, value?.[key]]);

describe('a 2026 round asking under the key "__proto__" or "constructor"', () => {
  it('answers each key as an own property of the retry’s inputResponses', async () => {
    const { wire, retries } = protoServer(['__proto__']);
    const { hub } = scriptedHub(wire, () => ({ action: 'accept', content: { ok: true } }));
    const result = await hub.callTool({ server: 'modern', tool: 't', args: {}, origin });
    expect(result.text).toBe('done');
    expect(own(retries[0])).toEqual([['__proto__', { action: 'accept', content: { ok: true } }]]);
  });

  it.each([
    ['the Redis round store', redisStore],
    ['the in-process round store', () => Promise.resolve(new MemoryRoundStore())],
  ])('keeps the answers for a survivor’s retry through %s', async (_name, makeStore) => {
    const names = ['__proto__', 'constructor'];
    const { wire, retries } = protoServer(names);
    const store = await makeStore();
    const logger = { warn: () => undefined };
    const r1 = roundKeeper({ store, claimant: 'r1', clock: systemClock, logger });
    // Replica r1 asks the round (one form for both keys); nobody answers there (it dies).
    const roundId = await new Promise<string>((resolve) => {
      const asking = ({ ctx }: Asked) => (resolve(ctx.round?.id ?? ''), new Promise<never>(() => undefined));
      const { hub } = scriptedHub(wire, asking, r1);
      void hub
        .callTool({ server: 'modern', tool: 't', args: {}, origin, durable: true })
        .catch(() => undefined);
    });
    // The answers are recorded elsewhere; the last one claims the retry for survivor r2.
    const claim = { claimant: 'r2', now: Date.now(), leaseMs: 15_000 };
    const recorded = [];
    for (const key of names) {
      recorded.push(
        await store.answer(roundId, 1, key, { action: 'accept', content: { ok: key === names[0] } }, claim),
      );
    }
    expect(recorded).toEqual(['recorded', 'claimed']);
    const round = await store.get(roundId);
    if (round === undefined) throw new Error('round gone');
    const r2 = roundKeeper({ store, claimant: 'r2', clock: systemClock, logger });
    const { hub: survivor } = scriptedHub(wire, () => ({ action: 'cancel' }), r2);
    const result = await survivor.callTool({ ...resumedCall(round), origin });
    expect(result.text).toBe('done');
    expect(own(retries.at(-1))).toEqual([
      ['__proto__', { action: 'accept', content: { ok: true } }],
      ['constructor', { action: 'accept', content: { ok: false } }],
    ]);
  });
});
