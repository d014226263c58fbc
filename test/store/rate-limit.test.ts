import { describe, expect, it, vi } from 'vitest';
import { RateLimitedError } from '../../src/store/index.js';
import { uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore } from './helpers.js';

describe('per-server rate limit', () => {
  it('admits max new questions per window and refuses the next with rate_limited and a retry delay', async () => {
    const prefix = uniquePrefix();
    const [a, b] = await Promise.all([openStore(prefix, 'holder-a'), openStore(prefix, 'holder-b')]);
    const rateLimit = { max: 2, perMs: 60_000 };
    await a.create(newQuestion({ userId: 'U1' }), { rateLimit });
    // The window is shared by every replica.
    await b.create(newQuestion({ userId: 'U1' }), { rateLimit });

    const refused = a.create(newQuestion({ userId: 'U1' }), { rateLimit });
    await expect(refused).rejects.toBeInstanceOf(RateLimitedError);
    const err = (await refused.catch((e: unknown) => e)) as RateLimitedError;
    expect(err).toMatchObject({ name: 'RateLimitedError', code: 'rate_limited', server: 'fixture' });
    expect(err.retryAfterMs).toBeGreaterThan(0);
    expect(err.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await a.pendingFor('U1')).toHaveLength(2);

    await a.create(newQuestion({ server: 'other' }), { rateLimit });
    await a.create(newQuestion());
  });

  it('admits again once the window has passed', async () => {
    const store = await openStore(uniquePrefix(), 'holder-a');
    const rateLimit = { max: 1, perMs: 100 };
    await store.create(newQuestion(), { rateLimit });
    await expect(store.create(newQuestion(), { rateLimit })).rejects.toMatchObject({ code: 'rate_limited' });
    await vi.waitFor(() => store.create(newQuestion(), { rateLimit }), { timeout: 2_000, interval: 20 });
  });
});
