// Waiting for a grant's refresh claim (vault.ts, grant-refresh.ts) is bounded and cancellable: a claim another
// refresh holds past REFRESH_CLAIM_WAIT_MS (on the vault's clock, stepped here) fails the wait with SignInError
// refresh_busy, and the caller's signal ends the wait at once; neither hangs until the holder lets go. On real
// Redis under this file's own prefix (deleted afterwards).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrantRefresh } from '../../../src/mcp/auth/grant-refresh.js';
import { IdpSignIn } from '../../../src/mcp/auth/idp.js';
import { REFRESH_CLAIM_WAIT_MS } from '../../../src/mcp/auth/vault.js';
import { deferred } from '../../support/deferred.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';
import { REDIRECT, SERVER, testVault } from './support.js';

const TOKENS = { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' };

let redis: Redis;
let prefix: string;
/** The vault's clock, ms: stepped by the tests. */
let now = Date.now();
/** Resolved when the vault next reads its clock (a claim's wait starting). */
let clockRead = deferred();
const clock = (): number => {
  clockRead.resolve();
  return now;
};

beforeAll(() => {
  redis = new Redis(redisUrl());
  prefix = uniquePrefix();
});

afterAll(async () => {
  await deleteUnder(prefix);
  await redis.quit();
});

/** What `waiting` settled with within `ms`, or 'still waiting'. */
function within(waiting: Promise<unknown>, ms: number): Promise<unknown> {
  const settled = waiting.then(
    (value) => value ?? 'claimed',
    (error: unknown) => error,
  );
  return Promise.race([settled, new Promise((resolve) => setTimeout(() => resolve('still waiting'), ms))]);
}

describe('waiting for a grant’s refresh claim', () => {
  it('gives up with refresh_busy once the bound has passed, leaving the holder’s claim and the grant alone', async () => {
    const vault = testVault(redis, prefix, clock);
    const person = { teamId: 'T1', userId: 'UBUSY' };
    const storage = vault.storage(SERVER, person);
    await storage.save({ tokens: TOKENS });
    const release = await storage.claimRefresh?.();

    // The SDK's read before a refresh, on another session: it waits for the claim.
    clockRead = deferred();
    const reading = new GrantRefresh(vault.storage(SERVER, person)).read();
    await clockRead.promise;
    now += REFRESH_CLAIM_WAIT_MS;
    expect(
      await within(reading, 3_000),
      'a refresh that cannot have its grant’s claim within the bound must fail with a typed error, not hang',
    ).toMatchObject({ name: 'SignInError', code: 'refresh_busy', server: SERVER });
    expect((await storage.load()).tokens).toEqual(TOKENS);
    await release?.();
    // The holder let go: the next claim is had at once.
    const next = await storage.claimRefresh?.();
    await next?.();
  });

  it('ends the wait with the caller’s reason when its signal aborts', async () => {
    const vault = testVault(redis, prefix, clock);
    const storage = vault.storage(SERVER, { teamId: 'T1', userId: 'UCANCEL' });
    const release = await storage.claimRefresh?.();
    const cancelled = new AbortController();
    const waiting = storage.claimRefresh?.(cancelled.signal) ?? Promise.reject(new Error('no claim'));
    cancelled.abort(new Error('the call was withdrawn'));
    expect(
      await within(waiting, 3_000),
      'an aborted caller must stop waiting for the refresh claim at once',
    ).toMatchObject({ message: 'the call was withdrawn' });
    await release?.();
  });

  it('fails a call whose company IdP sign-in cannot be renewed in time with refresh_busy, keeping the sign-in', async () => {
    const vault = testVault(redis, prefix, clock);
    const person = { teamId: 'T1', userId: 'UIDP' };
    const idp = new IdpSignIn(
      { issuer: 'https://idp.example', clientId: 'bot' },
      { vault, redirectUrl: REDIRECT, now: clock },
    );
    // An ID token long expired (exp 0), so the sign-in is to be renewed with its refresh token.
    const expired = `e30.${Buffer.from('{"exp":0}').toString('base64url')}.sig`;
    const storage = vault.storage(idp.name, person);
    await storage.save({ tokens: { ...TOKENS, id_token: expired } });
    const release = await storage.claimRefresh?.();
    clockRead = deferred();
    const renewing = idp.idToken(SERVER, person);
    await clockRead.promise;
    now += REFRESH_CLAIM_WAIT_MS;
    expect(await within(renewing, 3_000)).toMatchObject({
      unavailable: { name: 'SignInError', code: 'refresh_busy', server: SERVER },
    });
    expect((await storage.load()).tokens?.id_token).toBe(expired);
    await release?.();
  });
});
