// `/mcp disconnect` revokes at the authorization server (src/mcp/auth/revoke.ts, RFC 7009), on real Redis
// against the OAuth fixture: the fixture sees the refresh and the access token revoked by the client that
// holds them, neither works afterwards, and the grant is gone here; when revocation fails the grant is still
// deleted here and the failure is logged without a token.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VaultConnections } from '../../../src/mcp/index.js';
import { startOAuthServer, type OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/protected-server.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';
import { testGrants, testVault } from './support.js';

const ANN = { teamId: 'T1', userId: 'UANN' };
const warnings: { obj: object; msg: string }[] = [];
const logger = {
  debug: () => undefined,
  warn: (obj: object, msg: string) => void warnings.push({ obj, msg }),
};

let redis: Redis;
let prefix: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  redis = new Redis(redisUrl());
  prefix = uniquePrefix();
});
afterAll(async () => {
  for (const close of closers) await close();
  await deleteUnder(prefix);
  await redis.quit();
});

/** An authorization server and its protected server, and ANN connected to it through VaultConnections. */
async function connected(name: string, revocationStatus?: number) {
  const oauth: OAuthServer = await startOAuthServer(
    revocationStatus === undefined ? {} : { revocationStatus },
  );
  const server: ProtectedServer = await startProtectedServer(oauth);
  closers.push(
    () => server.close(),
    () => oauth.close(),
  );
  const vault = testVault(redis, prefix);
  const grants = testGrants(vault, [{ name, url: server.url.href }]);
  const wakes = { announce: () => Promise.resolve() };
  const connections = new VaultConnections({ grants, vault, wakes, now: Date.now, logger });
  const need = await connections.begin(name, ANN);
  const callback = await oauth.decide(need.authorizationUrl, 'ann@example.com');
  await connections.complete({
    state: callback.searchParams.get('state') ?? '',
    code: callback.searchParams.get('code') ?? '',
  });
  const { tokens, client } = await grants.record(name, ANN);
  if (tokens?.refresh_token === undefined || client === undefined) throw new Error('not connected');
  return { oauth, connections, grants, tokens: { ...tokens, refresh_token: tokens.refresh_token }, client };
}

describe('/mcp disconnect at the authorization server', () => {
  it('revokes the refresh and the access token with the client’s authentication; neither works after', async () => {
    const { oauth, connections, grants, tokens, client } = await connected('tracker');
    expect(oauth.verify(tokens.access_token)?.subject).toBe('ann@example.com');

    expect(await connections.disconnect('tracker', ANN)).toBe(true);
    expect(oauth.revocations).toEqual([
      { clientId: client.client_id, hint: 'refresh_token', known: true },
      { clientId: client.client_id, hint: 'access_token', known: true },
    ]);
    expect(oauth.verify(tokens.access_token)).toBeUndefined();
    const refreshed = await fetch(new URL('/token', oauth.issuer), {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: client.client_id,
        client_secret: client.client_secret ?? '',
      }),
    });
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await grants.record('tracker', ANN)).tokens).toBeUndefined();
  });

  it('deletes the grant here when revocation fails, and logs the failure without a token', async () => {
    const { oauth, connections, grants, tokens } = await connected('docs', 503);
    expect(await connections.disconnect('docs', ANN)).toBe(true);
    expect((await grants.record('docs', ANN)).tokens).toBeUndefined();
    expect(oauth.revocations).toEqual([]);
    const [warning, ...more] = warnings;
    expect(more).toEqual([]);
    expect(warning?.obj).toMatchObject({ server: 'docs', hint: 'refresh_token', status: 503 });
    const logged = JSON.stringify(warning);
    expect(logged).not.toContain(tokens.access_token);
    expect(logged).not.toContain(tokens.refresh_token);
  });
});
