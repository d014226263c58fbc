// A dynamically registered client whose secret expires (RFC 7591 `client_secret_expires_at`), on real Redis against
// the OAuth fixture with one clock for the bot and the authorization server: a Connect link is made only with a
// shared client that still authenticates when its callback can come back (a link lives 10 minutes). Before, the
// link went out with the expired (or about to expire) client, the person consented, and the callback's code
// exchange was refused invalid_client: the person was told to run /mcp connect again.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VaultConnections, type SignInNeeded } from '../../../src/mcp/index.js';
import { startOAuthServer, type OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/protected-server.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';
import { SERVER, startWakes, testGrants, testVault, type WakesOnRedis } from './support.js';

/** A registered client's secret lasts a day at the authorization server, in seconds. */
const SECRET_TTL_SEC = 24 * 3600;

/** The bot's and the authorization server's one clock (epoch ms), moved by the tests. */
let nowMs = Date.now();
const clock = (): number => nowMs;

let oauth: OAuthServer;
let server: ProtectedServer;
let onRedis: WakesOnRedis;
let redis: Redis;
let prefix: string;
let connections: VaultConnections;

beforeAll(async () => {
  oauth = await startOAuthServer({ now: clock, clientSecretTtlSec: SECRET_TTL_SEC });
  server = await startProtectedServer(oauth);
  prefix = uniquePrefix();
  redis = new Redis(redisUrl());
  onRedis = await startWakes(prefix);
  const vault = testVault(redis, prefix, clock);
  const grants = testGrants(vault, [{ name: SERVER, url: server.url.href }], clock);
  connections = new VaultConnections({ grants, vault, wakes: onRedis.wakes, now: clock });
});
afterAll(async () => {
  await onRedis.close();
  await server.close();
  await oauth.close();
  await deleteUnder(prefix);
  await redis.quit();
});

const clientIdOf = (need: SignInNeeded): string => need.authorizationUrl.searchParams.get('client_id') ?? '';

/** The person consents at the authorization server and their browser lands on the callback. */
async function signIn(need: SignInNeeded, subject: string): Promise<unknown> {
  const callback = await oauth.decide(need.authorizationUrl, subject);
  return connections.complete({
    state: callback.searchParams.get('state') ?? '',
    code: callback.searchParams.get('code') ?? '',
  });
}

describe('a registered client whose secret expires', () => {
  it('is registered anew for a Connect link made after it expired, and the link completes', async () => {
    const ann = { teamId: 'T1', userId: 'UANN' };
    const first = await connections.begin(SERVER, ann);
    expect(await signIn(first, 'ann@example.com')).toEqual({ server: SERVER, person: ann });

    nowMs += (SECRET_TTL_SEC + 60) * 1000;
    const bob = { teamId: 'T1', userId: 'UBOB' };
    const link = await connections.begin(SERVER, bob);
    expect(await signIn(link, 'bob@example.com')).toEqual({ server: SERVER, person: bob });
    expect(clientIdOf(link)).not.toBe(clientIdOf(first));
  });

  it('is registered anew for a link whose callback could come back after the secret expired', async () => {
    const cleo = { teamId: 'T1', userId: 'UCLEO' };
    const first = await connections.begin(SERVER, cleo);
    expect(await signIn(first, 'cleo@example.com')).toEqual({ server: SERVER, person: cleo });

    // Five minutes before the secret expires, a link is made; the person consents six minutes later.
    nowMs += (SECRET_TTL_SEC - 300) * 1000;
    const dan = { teamId: 'T1', userId: 'UDAN' };
    const link = await connections.begin(SERVER, dan);
    nowMs += 360 * 1000;
    expect(await signIn(link, 'dan@example.com')).toEqual({ server: SERVER, person: dan });
  });
});
