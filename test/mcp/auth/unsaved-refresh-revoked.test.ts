// A refresh whose answer arrives after the grant changed is not saved (grant-refresh.ts), and the fresh tokens in
// it are revoked at the authorization server (RFC 7009, revoke.ts) instead of staying valid there: after a
// disconnect meanwhile, and after a new sign-in meanwhile, whose own tokens stay untouched. A revocation that
// fails is logged and the refresh goes on as before. The SDK's own auth() refreshes through PersonGrants'
// provider over the vault on real Redis, against the sandbox's authorization server and the protected tracker;
// the test acts when the refresh's answer is on its way back (the auth() fetch).
import { auth, type FetchLike } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage, SignInProvider, type Person, type SignInRecord } from '../../../src/mcp/index.js';
import { until } from '../../support/until.js';
import { RevocationFixture } from './revocation.js';
import { REDIRECT, SERVER } from './support.js';

const revocations = new RevocationFixture();
const { warnings } = revocations;
beforeAll(() => revocations.open());
afterAll(() => revocations.close());

/** An authorization server, its protected tracker, and the bot's grants and connections for it. */
async function bot(revocationStatus?: number) {
  const { oauth, server, grants, connections, ...fixture } = await revocations.bot({ revocationStatus });
  /** `/mcp connect` and approval as `subject`: the person's new grant. */
  const connect = async (person: Person, subject: string) => {
    const { tokens } = await fixture.connect(person, subject);
    return { access: tokens.access_token, refresh: tokens.refresh_token };
  };
  /** The SDK's refresh of the person's grant; `meanwhile` runs once its answer has left the server. */
  const refresh = async (person: Person, meanwhile: () => Promise<unknown>) => {
    const fresh: { access_token?: string; refresh_token?: string } = {};
    const fetchFn: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      if (!(init?.body instanceof URLSearchParams) || init.body.get('grant_type') !== 'refresh_token')
        return response;
      Object.assign(fresh, await response.clone().json());
      await meanwhile();
      return response;
    };
    const provider = grants.provider(SERVER, person, { onRedirect: () => Promise.resolve() });
    const outcome = await auth(provider, { serverUrl: server.url.href, fetchFn });
    return { outcome, fresh };
  };
  /** Whether `refreshToken` still refreshes at the authorization server for the person's client. */
  const refreshes = async (person: Person, refreshToken: string): Promise<boolean> => {
    const { client } = await grants.record(SERVER, person);
    const answer = await fixture.refreshAt(client, refreshToken);
    return answer.status === 200;
  };
  return { oauth, grants, connections, connect, refresh, refreshes };
}

describe('a refresh whose answer is not saved', () => {
  it('revokes the fresh tokens when the person disconnected meanwhile', async () => {
    const { oauth, grants, connections, connect, refresh } = await bot();
    const ann = { teamId: 'T1', userId: 'UANN' };
    await connect(ann, 'ann@example.com');

    const { outcome, fresh } = await refresh(ann, () => connections.disconnect(SERVER, ann));
    expect(outcome).toBe('AUTHORIZED');
    expect((await grants.record(SERVER, ann)).tokens, 'the disconnect stays a disconnect').toBeUndefined();
    await until('the unsaved access token is revoked', 5_000, () =>
      Promise.resolve(oauth.verify(fresh.access_token ?? '') === undefined),
    );
    // The disconnect's two, then the unsaved answer's refresh token and access token.
    expect(oauth.revocations.map((r) => r.hint)).toEqual([
      'refresh_token',
      'access_token',
      'refresh_token',
      'access_token',
    ]);
  });

  it('revokes only the unsaved tokens when a new sign-in replaced the grant meanwhile', async () => {
    const { oauth, grants, connect, refresh, refreshes } = await bot();
    const bob = { teamId: 'T1', userId: 'UBOB' };
    const first = await connect(bob, 'bob@example.com');
    let second = { access: '', refresh: '' };

    const { fresh } = await refresh(bob, async () => (second = await connect(bob, 'bob@example.com')));
    expect((await grants.record(SERVER, bob)).tokens).toMatchObject({
      access_token: second.access,
      refresh_token: second.refresh,
    });
    await until('the unsaved access token is revoked', 5_000, () =>
      Promise.resolve(oauth.verify(fresh.access_token ?? '') === undefined),
    );
    // This server hands the spent refresh token back: the old grant's, held by nobody now, so revoked too.
    expect(fresh.refresh_token).toBe(first.refresh);
    await until(
      'the old grant’s refresh token is revoked',
      5_000,
      async () => !(await refreshes(bob, first.refresh)),
    );
    expect(oauth.verify(second.access)?.subject, 'the saved grant’s access token still works').toBe(
      'bob@example.com',
    );
    expect(await refreshes(bob, second.refresh), 'the saved grant’s refresh token still works').toBe(true);
  });

  it('logs a revocation that fails, and the refresh ends as it would have', async () => {
    const { connections, connect, refresh } = await bot(503);
    const cat = { teamId: 'T1', userId: 'UCAT' };
    await connect(cat, 'cat@example.com');
    warnings.splice(0);

    const { outcome, fresh } = await refresh(cat, () => connections.disconnect(SERVER, cat));
    expect(outcome).toBe('AUTHORIZED');
    // The disconnect's failed revocation, then the unsaved answer's.
    await until('both failed revocations are logged', 5_000, () => Promise.resolve(warnings.length === 2));
    expect(warnings[1]?.obj).toMatchObject({ server: SERVER, hint: 'refresh_token', status: 503 });
    const logged = JSON.stringify(warnings);
    expect(logged).not.toContain(fresh.access_token);
    expect(logged).not.toContain(fresh.refresh_token);
  });
});

describe('the unsaved tokens handed over for revocation', () => {
  it('leave out every token the saved grant holds', async () => {
    const storage = memoryStorage();
    const revoked: SignInRecord[] = [];
    const provider = new SignInProvider({
      redirectUrl: REDIRECT,
      clientName: 'elicit-relay test',
      storage,
      preRegistered: { client_id: 'bot' },
      onRedirect: () => Promise.resolve(),
      revokeUnsaved: (record) => Promise.resolve(revoked.push(record)),
    });
    const ctx = { issuer: 'https://as.example' };
    await storage.save({ tokens: { access_token: 'at-0', token_type: 'Bearer', refresh_token: 'rt-0' } });
    await provider.tokens(ctx);
    // Saved meanwhile: a grant holding the refresh token the answer brings (a server that hands it back).
    await storage.save({ tokens: { access_token: 'at-x', token_type: 'Bearer', refresh_token: 'rt-x' } });
    await provider.saveTokens({ access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-x' });
    expect(revoked).toEqual([
      { client: { client_id: 'bot' }, tokens: { access_token: 'at-1', token_type: 'Bearer' } },
    ]);
  });
});
