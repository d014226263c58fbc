// A grant's refresh is claimed across replicas (grant-refresh.ts) and let go by a save, a refusal or a redirect.
// The SDK's auth() rethrows other refresh failures (invalid_scope, an insecure token endpoint, a failing DPoP
// proof) without any of these: the same provider's next refresh must not then wait out its own claim (10 s).
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { GrantRefresh } from '../../../src/mcp/auth/grant-refresh.js';
import { Sealer } from '../../../src/mcp/auth/sealed.js';
import { TokenVault } from '../../../src/mcp/auth/vault.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';
import { deleteKeysUnder } from '../../setup/delete-keys.js';

const KEY = Buffer.alloc(32, 7);
const ANN = { teamId: 'T1', userId: 'UANN' };
const TOKENS = { access_token: 'at-review-1', token_type: 'Bearer', refresh_token: 'rt-review-1' };

const clients: Redis[] = [];
const prefixes: string[] = [];
afterEach(async () => {
  clients.splice(0).forEach((c) => c.disconnect());
  await Promise.all(prefixes.splice(0).map((prefix) => deleteKeysUnder(redisUrl(), prefix)));
});

describe("a grant's refresh whose SDK flow threw", () => {
  it('does not make the same provider wait for its own claim on its next refresh', async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const redis = new Redis(redisUrl());
    clients.push(redis);
    const vault = new TokenVault(redis, prefix, new Sealer(KEY));
    const storage = vault.storage('tracker', ANN);
    await storage.save({ tokens: TOKENS });
    const refresh = new GrantRefresh(storage);

    // The SDK's auth(): tokens(ctx) → read() claims; the refresh is refused with, say, invalid_scope, which
    // auth() rethrows: no saveTokens, no invalidateCredentials, no redirectToAuthorization.
    expect(await refresh.read()).toMatchObject({ refresh_token: 'rt-review-1' });

    // The person's next call: auth() again on the same provider.
    const started = Date.now();
    expect(await refresh.read()).toMatchObject({ refresh_token: 'rt-review-1' });
    expect(Date.now() - started).toBeLessThan(2_000);
    await refresh.end();
  }, 20_000);
});
