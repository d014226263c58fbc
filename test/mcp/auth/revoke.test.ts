// `/mcp disconnect` revokes at the authorization server (src/mcp/auth/revoke.ts, RFC 7009), on real Redis
// against the OAuth fixture: the fixture sees the refresh and the access token revoked by the client that
// holds them, neither works afterwards, and the grant is gone here; when revocation fails the grant is still
// deleted here and the failure is logged without a token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RevocationFixture } from './revocation.js';

const ANN = { teamId: 'T1', userId: 'UANN' };
const revocations = new RevocationFixture();
const { warnings } = revocations;
beforeAll(() => revocations.open());
afterAll(() => revocations.close());

/** An authorization server and its protected server, and ANN connected to it through VaultConnections. */
async function connected(name: string, revocationStatus?: number) {
  const bot = await revocations.bot({ name, revocationStatus });
  const { tokens, client } = await bot.connect(ANN, 'ann@example.com');
  return { ...bot, tokens, client };
}

describe('/mcp disconnect at the authorization server', () => {
  it('revokes the refresh and the access token with the client’s authentication; neither works after', async () => {
    const { oauth, connections, grants, tokens, client, refreshAt } = await connected('tracker');
    expect(oauth.verify(tokens.access_token)?.subject).toBe('ann@example.com');

    expect(await connections.disconnect('tracker', ANN)).toBe(true);
    expect(oauth.revocations).toEqual([
      { clientId: client.client_id, hint: 'refresh_token', known: true },
      { clientId: client.client_id, hint: 'access_token', known: true },
    ]);
    expect(oauth.verify(tokens.access_token)).toBeUndefined();
    const refreshed = await refreshAt(client, tokens.refresh_token);
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
