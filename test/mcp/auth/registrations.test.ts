// One dynamically registered client per server and authorization server, shared by every person and replica
// (src/mcp/auth/registrations.ts), on real Redis against the OAuth fixture: two Connect links begun at the
// same instant on two replicas register once, and both links complete (before, each registered its own client
// and the second overwrote the first's in the person's record, so the first link's code exchange failed).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PersonGrants,
  Sealer,
  SignInWakes,
  TokenVault,
  VaultConnections,
  type SignInNeeded,
} from '../../../src/mcp/index.js';
import { startOAuthServer, type OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/protected-server.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';

const REDIRECT = 'https://bot.example.com/oauth/mcp/callback';
const SERVER = 'tracker';

let oauth: OAuthServer;
let server: ProtectedServer;
let prefix: string;
const clients: Redis[] = [];
const wakes: SignInWakes[] = [];

/** One replica's Connections: its own Redis connections, vault and grants; the key prefix is shared. */
async function replica(): Promise<VaultConnections> {
  const [redis, subscriber] = [new Redis(redisUrl()), new Redis(redisUrl())];
  clients.push(redis, subscriber);
  const vault = new TokenVault(redis, prefix, new Sealer(Buffer.alloc(32, 7)));
  const signedIn = new SignInWakes(subscriber, redis, `${prefix}:auth:signed-in`);
  await signedIn.start();
  wakes.push(signedIn);
  const grants = new PersonGrants({
    servers: [{ name: SERVER, url: server.url.href }],
    vault,
    redirectUrl: REDIRECT,
    clientName: 'elicit-relay test',
    oneWorkspace: false,
    now: Date.now,
  });
  return new VaultConnections({ grants, vault, wakes: signedIn, now: Date.now });
}

let a: VaultConnections;
let b: VaultConnections;

beforeAll(async () => {
  oauth = await startOAuthServer();
  server = await startProtectedServer(oauth);
  prefix = uniquePrefix();
  [a, b] = [await replica(), await replica()];
});
afterAll(async () => {
  await Promise.all(wakes.map((w) => w.stop()));
  await server.close();
  await oauth.close();
  await deleteUnder(prefix);
  await Promise.all(clients.map((client) => client.quit()));
});

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
