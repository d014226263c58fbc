// One dynamically registered client per server and authorization server, shared by every person and replica
// (src/mcp/auth/registrations.ts), on real Redis against the OAuth fixture: two Connect links begun at the
// same instant on two replicas register once, and both links complete (before, each registered its own client
// and the second overwrote the first's in the person's record, so the first link's code exchange failed).
// A link's callback exchanges its code as the client the link was made with, even when the shared client was
// forgotten (or registered anew) meanwhile, and never claims a registration; when the authorization server no
// longer knows that client (invalid_client) the shared client is forgotten and the person is told to connect
// again (SignInError client_forgotten), and the next sign-in registers at once.
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { SignInError, type SignInNeeded, type VaultConnections } from '../../../src/mcp/index.js';
import type { OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { SERVER, startAuthFixture, type AuthFixture, type AuthReplica } from './support.js';

let fixture: AuthFixture;
let oauth: OAuthServer;
/** The first replica: its vault and grants are read to check what the callbacks kept. */
let one: AuthReplica;
let a: VaultConnections;
let b: VaultConnections;

beforeAll(async () => {
  fixture = await startAuthFixture();
  oauth = fixture.oauth;
  one = await fixture.replica();
  a = one.connections;
  b = (await fixture.replica()).connections;
});
afterAll(() => fixture.close());

/** The person approves at the authorization server: the callback's parameters. */
async function approved(need: SignInNeeded, subject: string): Promise<{ state: string; code: string }> {
  const callback = await oauth.decide(need.authorizationUrl, subject);
  return { state: callback.searchParams.get('state') ?? '', code: callback.searchParams.get('code') ?? '' };
}

describe('one registered client per authorization server', () => {
  it('registers once for two Connect links begun at once on two replicas, and both links complete', async () => {
    const ann = { teamId: 'T1', userId: 'UANN' };
    const [first, second] = await Promise.all([a.begin(SERVER, ann), b.begin(SERVER, ann)]);
    expect(oauth.clients.size).toBe(1);
    const clientId = (need: SignInNeeded) => need.authorizationUrl.searchParams.get('client_id');
    expect(clientId(first)).toBe(clientId(second));

    // Each callback lands on the replica that did not begin it.
    const [firstBack, secondBack] = [
      await approved(first, 'ann@example.com'),
      await approved(second, 'ann@example.com'),
    ];
    expect(await b.complete(firstBack)).toEqual({ server: SERVER, person: ann });
    expect(await a.complete(secondBack)).toEqual({ server: SERVER, person: ann });
    expect(oauth.tokenRequests.filter((r) => r.subject === 'ann@example.com')).toHaveLength(2);
  });

  it('lets another person sign in with the client already registered', async () => {
    const bob = { teamId: 'T1', userId: 'UBOB' };
    const need = await b.begin(SERVER, bob);
    expect(await a.complete(await approved(need, 'bob@example.com'))).toEqual({
      server: SERVER,
      person: bob,
    });
    expect(oauth.clients.size).toBe(1);
  });
});

/** The client id a Connect link was made with. */
const clientIdOf = (need: SignInNeeded): string => need.authorizationUrl.searchParams.get('client_id') ?? '';

/**
 * A check that nobody holds the claim to register, taking no real time: resolves undefined at once when none is
 * held, rejects at its first wait when one is. Its clock runs a minute behind, so the claim it takes itself has
 * already lapsed for everyone else.
 */
async function claimNowOrFail(issuer: string): Promise<unknown> {
  const behind = Date.now() - 60_000;
  const registrations = one.vault.registrations(SERVER, {
    now: () => behind,
    sleep: () => Promise.reject(new Error('the registration was still claimed')),
  });
  return registrations.claim(issuer).then(
    (client) => client,
    (error: unknown) => error,
  );
}

describe('a callback after the shared client was forgotten', () => {
  const issuer = (): string => oauth.issuer.href.replace(/\/$/, '');

  it('completes with the client its link was made with, and keeps that client for the person', async () => {
    const cleo = { teamId: 'T1', userId: 'UCLEO' };
    const need = await a.begin(SERVER, cleo);
    const linkClient = clientIdOf(need);
    // The shared client is forgotten in Redis (e.g. its sealed value no key opens), then registered anew.
    await one.vault.registrations(SERVER).forget(issuer(), linkClient);
    const dan = { teamId: 'T1', userId: 'UDAN' };
    const danNeed = await b.begin(SERVER, dan);
    expect(clientIdOf(danNeed)).not.toBe(linkClient);

    expect(await b.complete(await approved(need, 'cleo@example.com'))).toEqual({
      server: SERVER,
      person: cleo,
    });
    expect(await a.complete(await approved(danNeed, 'dan@example.com'))).toEqual({
      server: SERVER,
      person: dan,
    });
    // Cleo's refreshes and revocation go with the client her tokens were issued to; Dan's with the shared one.
    expect((await one.grants.record(SERVER, cleo))?.client?.client_id).toBe(linkClient);
    expect((await one.grants.record(SERVER, dan))?.client?.client_id).toBe(clientIdOf(danNeed));
    expect((await one.vault.storage(SERVER, dan).load())?.client).toBeUndefined();
  });

  it('completes with the link client while none is shared, and leaves no claim behind', async () => {
    const eve = { teamId: 'T1', userId: 'UEVE' };
    const need = await a.begin(SERVER, eve);
    await one.vault.registrations(SERVER).forget(issuer(), clientIdOf(need));
    expect(await b.complete(await approved(need, 'eve@example.com'))).toEqual({
      server: SERVER,
      person: eve,
    });
    expect(await claimNowOrFail(issuer())).toBeUndefined();
  });

  it('tells the person to connect again when the server no longer knows the link client, and forgets it', async () => {
    const fay = { teamId: 'T1', userId: 'UFAY' };
    const need = await a.begin(SERVER, fay);
    const linkClient = clientIdOf(need);
    const back = await approved(need, 'fay@example.com');
    oauth.clients.delete(linkClient);

    const failure = await b.complete(back).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert(failure instanceof SignInError);
    expect([failure.code, failure.server]).toEqual(['client_forgotten', SERVER]);
    expect(failure.message).toContain(`/mcp connect ${SERVER}`);
    // The shared client is forgotten and no claim is held: the next Connect link registers at once.
    expect(await one.vault.registrations(SERVER).find(issuer())).toBeUndefined();
    expect(await claimNowOrFail(issuer())).toBeUndefined();
    const again = await b.begin(SERVER, fay);
    expect(clientIdOf(again)).not.toBe(linkClient);
    expect(await a.complete(await approved(again, 'fay@example.com'))).toEqual({
      server: SERVER,
      person: fay,
    });
  });
});
