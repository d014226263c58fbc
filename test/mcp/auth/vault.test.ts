// The token vault (src/mcp/auth/vault.ts, sealed.ts) on the real Redis: records sealed with AES-256-GCM and
// bound to their key, key rotation, and the sign-in `state`: single use, bound to person and server, expiring.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDpopKey } from '../../../src/mcp/auth/dpop-key.js';
import { SealError, Sealer } from '../../../src/mcp/auth/sealed.js';
import { SignInError } from '../../../src/mcp/index.js';
import { STATE_TTL_SEC, TokenVault } from '../../../src/mcp/auth/vault.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';

const KEY = Buffer.alloc(32, 1);
const OLD_KEY = Buffer.alloc(32, 2);
const ANN = { teamId: 'T1', userId: 'UANN' };
const BOB = { teamId: 'T1', userId: 'UBOB' };
const TOKENS = { access_token: 'at-planted-4f1c', token_type: 'Bearer', refresh_token: 'rt-planted-9a2e' };

function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );
}

describe('Sealer', () => {
  const sealer = new Sealer(KEY);

  it('opens what it sealed, only with the same context, and never shows the plain text', () => {
    const sealed = sealer.seal('secret-token', 'k:ann');
    expect(sealed).not.toContain('secret-token');
    expect(sealer.open(sealed, 'k:ann')).toBe('secret-token');
    expect(() => sealer.open(sealed, 'k:bob')).toThrow(SealError);
    // One character of the tag changed (the last but one: all six of its bits are data, unlike the last's).
    const at = sealed.length - 2;
    const flipped = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(flipped).not.toBe(sealed);
    expect(() => sealer.open(flipped, 'k:ann')).toThrow(SealError);
  });

  it('during a rotation opens values of the previous key, marks them stale, and seals with the new one', () => {
    const old = new Sealer(OLD_KEY).seal('v', 'c');
    const rotating = new Sealer(KEY, OLD_KEY);
    expect(rotating.open(old, 'c')).toBe('v');
    expect(rotating.isStale(old)).toBe(true);
    expect(rotating.isStale(rotating.seal('v', 'c'))).toBe(false);
    let error: unknown;
    try {
      new Sealer(KEY).open(old, 'c');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SealError);
    expect((error as SealError).code).toBe('unknown_key');
  });
});

describe('TokenVault on Redis', () => {
  let redis: Redis;
  let prefix: string;
  let vault: TokenVault;

  beforeAll(() => {
    redis = new Redis(redisUrl());
    prefix = uniquePrefix();
    vault = new TokenVault(redis, prefix, new Sealer(KEY));
  });
  afterAll(async () => {
    await deleteUnder(prefix);
    await redis.quit();
  });

  it('keeps each person their own record, with nothing secret in clear text in Redis', async () => {
    await vault.storage('tracker', ANN).save({ tokens: TOKENS, codeVerifier: 'verifier-planted-77' });
    expect((await vault.storage('tracker', ANN).load()).tokens).toEqual(TOKENS);
    expect(await vault.storage('tracker', BOB).load()).toEqual({});
    expect(await vault.storage('other', ANN).load()).toEqual({});
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const value = (await redis.get(key)) ?? '';
      for (const secret of ['at-planted-4f1c', 'rt-planted-9a2e', 'verifier-planted-77']) {
        expect(value).not.toContain(secret);
        expect(key).not.toContain(secret);
      }
    }
  });

  it('never opens a record copied under another person’s key: it is no grant, and is deleted', async () => {
    const annKey = (await redis.keys(`${prefix}:auth:grant:tracker:T1:UANN`))[0] ?? '';
    const bobKey = annKey.replace('UANN', 'UBOB');
    await redis.set(bobKey, (await redis.get(annKey)) ?? '');
    const told: string[] = [];
    const watched = new TokenVault(redis, prefix, new Sealer(KEY), Date.now, (key, code) =>
      told.push(`${key} ${code}`),
    );
    expect(await watched.storage('tracker', BOB).load()).toEqual({});
    expect(told).toEqual([`${bobKey} tampered`]);
    expect(await redis.exists(bobKey)).toBe(0);
    expect((await vault.storage('tracker', ANN).load()).tokens).toEqual(TOKENS);
  });

  it('drops a grant and DPoP key sealed with a key rotated away without _PREVIOUS, so its person connects again', async () => {
    const rotatedAway = new TokenVault(redis, prefix, new Sealer(OLD_KEY));
    await rotatedAway.storage('tracker', BOB).save({ tokens: TOKENS });
    await rotatedAway.storage('tracker', BOB).claimDpopKey(await newDpopKey('ES256'));
    const told: string[] = [];
    const current = new TokenVault(redis, prefix, new Sealer(KEY), Date.now, (key, code) =>
      told.push(`${key.split(':').slice(-2).join(':')} ${code}`),
    );
    const bob = current.storage('tracker', BOB);
    expect(await bob.load()).toEqual({});
    expect(await bob.loadDpopKey()).toBeUndefined();
    expect(told).toEqual(['T1:UBOB unknown_key', 'UBOB:dpop unknown_key']);
    const fresh = await newDpopKey('ES256');
    expect(await bob.claimDpopKey(fresh)).toEqual(fresh);
    await bob.save({ tokens: TOKENS });
    expect((await bob.load()).tokens).toEqual(TOKENS);
    expect(await current.remove('tracker', BOB)).toBe(true);
  });

  it('deletes a grant on remove, and says false when there was none', async () => {
    expect(await vault.remove('tracker', ANN)).toBe(true);
    expect(await vault.storage('tracker', ANN).load()).toEqual({});
    expect(await vault.remove('tracker', ANN)).toBe(false);
  });

  it('binds a state to the person and server and takes it once; a replay is state_used once it completed, else state_spent', async () => {
    const state = await vault.issueState({ server: 'tracker', person: ANN });
    expect(await vault.consumeState(state)).toEqual({ server: 'tracker', person: ANN });
    const spent = await refusal(vault.consumeState(state));
    expect(spent).toBeInstanceOf(SignInError);
    expect((spent as SignInError).code).toBe('state_spent');
    await vault.completedState(state);
    expect(((await refusal(vault.consumeState(state))) as SignInError).code).toBe('state_used');
  });

  it('reads a state for its start page without taking it: the authorization page bound to it, then its callback takes it', async () => {
    const state = await vault.issueState({ server: 'tracker', person: ANN });
    const authorizationUrl = `https://as.example/authorize?state=${state}`;
    await vault.bindRequest(state, { codeVerifier: 'v1', authorizationUrl });
    expect(await vault.peekState(state)).toMatchObject({ authorizationUrl, codeVerifier: 'v1' });
    expect(await vault.peekState(state)).toMatchObject({ server: 'tracker', person: ANN });
    expect(await vault.consumeState(state)).toMatchObject({ authorizationUrl, person: ANN });
    expect(((await refusal(vault.peekState(state))) as SignInError).code).toBe('state_spent');
  });

  it('refuses a state sealed with a key rotated away without _PREVIOUS as state_invalid, not a failure', async () => {
    const rotatedAway = new TokenVault(redis, prefix, new Sealer(OLD_KEY));
    const state = await rotatedAway.issueState({ server: 'tracker', person: ANN });
    const unreadable = await refusal(vault.consumeState(state));
    expect(unreadable).toBeInstanceOf(SignInError);
    expect((unreadable as SignInError).code).toBe('state_invalid');
  });

  it('refuses a forged state as state_invalid and one older than 10 minutes as state_expired', async () => {
    const forged = await refusal(vault.consumeState(`${Date.now().toString(36)}.${'x'.repeat(32)}`));
    expect((forged as SignInError).code).toBe('state_invalid');
    expect(((await refusal(vault.consumeState('anything'))) as SignInError).code).toBe('state_invalid');
    const issuedEarlier = new TokenVault(
      redis,
      prefix,
      new Sealer(KEY),
      () => Date.now() - (STATE_TTL_SEC + 1) * 1000,
    );
    const old = await issuedEarlier.issueState({ server: 'tracker', person: BOB });
    expect(((await refusal(vault.consumeState(old))) as SignInError).code).toBe('state_expired');
  });
});
