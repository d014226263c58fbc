// DPoP (RFC 9449) on the bot's side (src/mcp/auth/dpop-key.ts), on real Redis: a grant's key pair is created
// once its authorization server says it does DPoP, kept sealed in the vault beside the grant, and a second
// provider over the same Redis (another replica) signs with the same key, so tokens bound to it (`cnf.jkt`)
// work from every replica; a use_dpop_nonce challenge is not taken for a refused token. The token and MCP
// requests themselves are the conformance suite's auth/dpop and auth/dpop-nonce (test/node22).
import { Redis } from 'ioredis';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDpopKey } from '../../../src/mcp/auth/dpop-key.js';
import { rediscoverOnRefusedToken } from '../../../src/mcp/auth/rediscover.js';
import { memoryStorage, Sealer, SignInProvider, TokenVault } from '../../../src/mcp/index.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';

const KEY = Buffer.alloc(32, 9);
const ANN = { teamId: 'T1', userId: 'UANN' };
const ISSUER = 'https://as.example.com';

function discovery(dpopAlgs?: string[]) {
  return {
    authorizationServerUrl: ISSUER,
    authorizationServerMetadata: {
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/authorize`,
      token_endpoint: `${ISSUER}/token`,
      response_types_supported: ['code'],
      ...(dpopAlgs === undefined ? {} : { dpop_signing_alg_values_supported: dpopAlgs }),
    },
  };
}

/** The `jwk` a proof carries in its protected header. */
function proofJwk(proof: string): unknown {
  const header = JSON.parse(Buffer.from(proof.split('.')[0] ?? '', 'base64url').toString('utf8')) as {
    jwk?: unknown;
  };
  return header.jwk;
}

describe('a grant DPoP key in the vault', () => {
  let redis: Redis;
  let other: Redis;
  let prefix: string;
  /** Each replica has its own Redis connection and vault; they share the Redis and the sealing key. */
  const replica = (connection: Redis, server: string) =>
    new SignInProvider({
      redirectUrl: 'https://bot.example.com/oauth/mcp/callback',
      clientName: 'elicit-relay test',
      storage: new TokenVault(connection, prefix, new Sealer(KEY)).storage(server, ANN),
      onRedirect: () => Promise.resolve(),
    });

  beforeAll(() => {
    redis = new Redis(redisUrl());
    other = new Redis(redisUrl());
    prefix = uniquePrefix();
  });
  afterAll(async () => {
    await deleteUnder(prefix);
    await Promise.all([redis.quit(), other.quit()]);
  });

  it('is created sealed once the authorization server does DPoP, and a second replica signs with it', async () => {
    const first = replica(redis, 'tracker');
    await first.saveDiscoveryState(discovery(['RS256', 'ES256']));
    const session = await first.dpop();
    expect(session?.alg).toBe('ES256');

    const stored = await new TokenVault(redis, prefix, new Sealer(KEY)).storage('tracker', ANN).loadDpopKey();
    expect(stored?.thumbprint).toBe(session?.thumbprint);
    const privatePart = String(stored?.privateJwk.d);
    expect(privatePart.length).toBeGreaterThan(20);
    for (const key of await redis.keys(`${prefix}:*`))
      expect(await redis.get(key)).not.toContain(privatePart);

    const second = replica(other, 'tracker');
    const proof = await (
      await second.dpop()
    )?.buildProof({ htm: 'POST', htu: 'https://mcp.example.com/mcp' });
    expect(proofJwk(proof ?? '')).toEqual(session?.publicJwk);
  });

  it('is one key when two replicas create it at the same moment', async () => {
    const [a, b] = [replica(redis, 'racing'), replica(other, 'racing')];
    await a.saveDiscoveryState(discovery(['ES256']));
    const [sessionA, sessionB] = await Promise.all([a.dpop(), b.dpop()]);
    expect(sessionA?.thumbprint).toBeDefined();
    expect(sessionB?.thumbprint).toBe(sessionA?.thumbprint);

    // Whoever claims later gets the key claimed first, never its own.
    const storage = new TokenVault(other, prefix, new Sealer(KEY)).storage('racing', ANN);
    const late = await newDpopKey('ES256');
    expect((await storage.claimDpopKey(late)).thumbprint).toBe(sessionA?.thumbprint);
  });

  it('is not made for an authorization server that does not do DPoP: its tokens stay Bearer', async () => {
    const provider = replica(redis, 'plain');
    expect(await provider.dpop()).toBeUndefined();
    await provider.saveDiscoveryState(discovery());
    expect(await provider.dpop()).toBeUndefined();
    expect(await redis.exists(`${prefix}:auth:grant:plain:T1:UANN:dpop`)).toBe(0);
  });

  it('goes with the grant: removing it deletes the key, and the next sign-in gets a new one', async () => {
    const vault = new TokenVault(redis, prefix, new Sealer(KEY));
    const provider = replica(redis, 'leaving');
    await provider.saveDiscoveryState(discovery(['ES256']));
    const before = (await provider.dpop())?.thumbprint;
    expect(await vault.remove('leaving', ANN)).toBe(true);
    expect(await vault.storage('leaving', ANN).loadDpopKey()).toBeUndefined();
    const again = replica(redis, 'leaving');
    await again.saveDiscoveryState(discovery(['ES256']));
    const after = (await again.dpop())?.thumbprint;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });
});

describe('a use_dpop_nonce challenge from the MCP endpoint', () => {
  let server: Server;
  let endpoint: URL;
  const challenges = ['DPoP error="use_dpop_nonce"', 'DPoP error="invalid_token"'];

  beforeAll(async () => {
    server = createServer((_req, res) => {
      const challenge = challenges.shift() ?? 'DPoP error="invalid_token"';
      res.writeHead(401, { 'www-authenticate': challenge, 'dpop-nonce': 'n-1' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    endpoint = new URL(`http://127.0.0.1:${port}/mcp`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('keeps the discovery (it asks for a nonce, not a new token); a refused token forgets it', async () => {
    const provider = new SignInProvider({
      redirectUrl: 'https://bot.example.com/oauth/mcp/callback',
      clientName: 'elicit-relay test',
      storage: memoryStorage(),
      onRedirect: () => Promise.resolve(),
    });
    await provider.saveDiscoveryState(discovery(['ES256']));
    const fetchEndpoint = rediscoverOnRefusedToken(endpoint, provider);
    const withToken = { method: 'POST', headers: { authorization: 'DPoP at-1', dpop: 'proof' } };

    expect((await fetchEndpoint(endpoint, withToken)).status).toBe(401);
    expect((await provider.discoveryState())?.authorizationServerUrl).toBe(ISSUER);
    expect((await fetchEndpoint(endpoint, withToken)).status).toBe(401);
    expect(await provider.discoveryState()).toBeUndefined();
  });
});
