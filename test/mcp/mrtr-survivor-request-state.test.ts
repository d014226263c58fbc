// requestState comes back byte for byte (spec 2026-07-28: "MUST echo back the exact value … MUST NOT inspect,
// parse, modify"), also when a survivor sends the retry from the Redis round store. A JSON string may hold any
// UTF-16 code unit, lone surrogates included ("\udc80", as Python's json.dumps writes bytes decoded with
// surrogateescape), which UTF-8 cannot carry: the round store keeps such a state losslessly.
import { describe, expect, it } from 'vitest';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { resumedCall } from '../../src/rounds/take-over.js';
import { systemClock } from '../../src/clock.js';
import { CONFIRM, inputRequired, origin, scriptedHandler, scriptedHub, text } from './mrtr-scripted.js';
import { redisRoundStores } from '../support/redis-rounds.js';

const redisStore = redisRoundStores('survivor');

/** Each UTF-16 code unit in hex, so a difference shows which unit changed. */
const units = (s: string | undefined): string =>
  s === undefined
    ? 'undefined'
    : Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16)).join(' ');

/**
 * Replica r1 asks the round (nobody answers there) and dies; the answer is recorded elsewhere, claiming the retry
 * for survivor r2, which resumes the call from Redis. Returns the state the server got on the retry.
 */
async function survivorRetry(state: string): Promise<{ got: string | undefined; result: string }> {
  const { handler, legs } = scriptedHandler({
    t: (n) =>
      n === 0
        ? inputRequired({
            inputRequests: { ok: inputRequired.elicit({ message: 'OK?', requestedSchema: CONFIRM }) },
            requestState: state,
          })
        : text('done'),
  });
  const { store, openRounds } = await redisStore();
  const logger = { warn: () => undefined };
  const r1 = roundKeeper({ store, claimant: 'r1', clock: systemClock, logger });
  const asked = new Promise<void>((resolve) => {
    const { hub } = scriptedHub(handler, () => (resolve(), new Promise(() => undefined)), r1);
    void hub
      .callTool({ server: 'modern', tool: 't', args: {}, origin, durable: true })
      .catch(() => undefined);
  });
  await asked;
  const [id = ''] = await openRounds();
  const claim = { claimant: 'r2', now: Date.now(), leaseMs: 15_000 };
  expect(await store.answer(id, 1, 'ok', { action: 'accept', content: { ok: true } }, claim)).toBe('claimed');
  const round = await store.get(id);
  if (round === undefined) throw new Error('round gone');
  const r2 = roundKeeper({ store, claimant: 'r2', clock: systemClock, logger });
  const { hub: survivor } = scriptedHub(handler, () => ({ action: 'cancel' }), r2);
  const result = await survivor.callTool({ ...resumedCall(round), origin });
  return { got: legs['t']?.[1]?.requestState, result: result.text };
}

describe('requestState through the Redis round store, resumed by a survivor', () => {
  it('keeps a large state with Chinese, emoji, NUL, quotes and backslashes byte for byte', async () => {
    const big = Buffer.alloc(300_000, 7).toString('base64') + '==中文😀\u0000\t"\\';
    const { got, result } = await survivorRetry(big);
    expect(result).toBe('done');
    expect(got === big, 'the large state changed').toBe(true);
  });

  it('keeps a state holding lone surrogates ("\\udc80") byte for byte', async () => {
    const state = 'v1.\udc80\udcff.\ud800.tail';
    const { got, result } = await survivorRetry(state);
    expect(result).toBe('done');
    expect(units(got)).toBe(units(state));
  });
});
