// A grant's refresh through SignInProvider over the vault on real Redis (grant-refresh.ts, vault.ts), with the
// SDK's calls made by hand in the order its auth() makes them (tokens read with the issuer, then saveTokens, or
// invalidateCredentials('tokens') when the refresh was refused): one refresh of a grant at a time; a refusal
// drops only the tokens it refused; a refresh's answer is not written into a grant deleted meanwhile; a
// sign-in's first tokens are saved into no record at all.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInProvider, type SignInStorage, type TokenVault } from '../../../src/mcp/index.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';
import { REDIRECT, SERVER, testVault } from './support.js';

/** What the SDK passes when it reads the tokens it is about to refresh. */
const CTX = { issuer: 'https://as.example' };
const tokens = (n: number) => ({
  access_token: `at-${n}`,
  token_type: 'Bearer',
  refresh_token: `rt-${n}`,
  issuer: CTX.issuer,
});

let redis: Redis;
let prefix: string;
let vault: TokenVault;

beforeAll(() => {
  redis = new Redis(redisUrl());
  prefix = uniquePrefix();
  vault = testVault(redis, prefix);
});

afterAll(async () => {
  await deleteUnder(prefix);
  await redis.quit();
});

function provider(storage: SignInStorage): SignInProvider {
  return new SignInProvider({
    redirectUrl: REDIRECT,
    clientName: 'elicit-relay test',
    storage,
    onRedirect: () => Promise.resolve(),
  });
}

describe('a grant refreshed by several sessions and replicas', () => {
  it('lets one refresh go at a time: the next reads, under its claim, the tokens the first saved', async () => {
    const person = { teamId: 'T1', userId: 'UONE' };
    const storage = vault.storage(SERVER, person);
    await storage.save({ tokens: tokens(0) });
    const [a, b] = [provider(vault.storage(SERVER, person)), provider(vault.storage(SERVER, person))];
    expect(await a.tokens(CTX)).toEqual(tokens(0));
    let readByB: unknown = 'still waiting';
    const reading = b.tokens(CTX).then((read) => (readByB = read));
    await sleep(300);
    expect(readByB).toBe('still waiting');
    await a.saveTokens(tokens(1));
    await reading;
    expect(readByB).toEqual(tokens(1));
    await b.saveTokens(tokens(2));
    expect((await storage.load()).tokens).toEqual(tokens(2));
  });

  it('drops the tokens on a refused refresh only while they are still the refused ones', async () => {
    const person = { teamId: 'T1', userId: 'UTWO' };
    // Two refreshes at once, as without a claim (one held past its lapse, say).
    const unclaimed = (): SignInStorage => ({ ...vault.storage(SERVER, person), claimRefresh: undefined });
    await vault.storage(SERVER, person).save({ tokens: tokens(0) });
    const [winner, loser] = [provider(unclaimed()), provider(unclaimed())];
    await Promise.all([winner.tokens(CTX), loser.tokens(CTX)]);
    await winner.saveTokens(tokens(1));
    // The loser's rt-0 was spent by the winner: refused, and the winner's tokens stay.
    await loser.invalidateCredentials('tokens');
    expect((await vault.storage(SERVER, person).load()).tokens).toEqual(tokens(1));
    // rt-1 refused while it is what the grant holds: the grant was revoked, its tokens go.
    const next = provider(unclaimed());
    await next.tokens(CTX);
    await next.invalidateCredentials('tokens');
    expect((await vault.storage(SERVER, person).load()).tokens).toBeUndefined();
  });

  it('writes no refreshed tokens into a grant deleted meanwhile, and saves a sign-in’s first tokens', async () => {
    const person = { teamId: 'T1', userId: 'UTHREE' };
    await vault.storage(SERVER, person).save({ tokens: tokens(0) });
    const refreshing = provider(vault.storage(SERVER, person));
    await refreshing.tokens(CTX);
    expect(await vault.remove(SERVER, person)).toBe(true);
    await refreshing.saveTokens(tokens(1));
    await refreshing.invalidateCredentials('discovery');
    expect(await vault.remove(SERVER, person), 'nothing was written back').toBe(false);
    // A code exchange (no refresh read): its tokens are saved with nothing there before.
    await provider(vault.storage(SERVER, person)).saveTokens(tokens(2));
    expect((await vault.storage(SERVER, person).load()).tokens).toEqual(tokens(2));
  });
});
