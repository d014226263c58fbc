// The handshake's bound (src/mcp/handshake.ts) is the server's silence, not the time the client spends signing
// in: a person's first session to a protected server waits on the claim to register the bot's client, which
// another replica holds (up to 30 s, registrations.ts), between the server's 401 and the request sent again.
// With the claim held past the whole bound on the hub's clock, the open does not fail 'handshake_timeout': the
// claim lapses, this session registers, the person signs in and the call runs. On real Redis against the OAuth
// fixture; the hub's clock and the claim's are one hand-run clock, so nothing waits for real time.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeCode, McpHub, SignInProvider, type McpAuth, type Person } from '../../../src/mcp/index.js';
import { handshakeLimitMs } from '../../../src/mcp/handshake.js';
import type { RegistrationTimers } from '../../../src/mcp/auth/registrations.js';
import type { TokenVault } from '../../../src/mcp/auth/vault.js';
import type { McpServerSpec } from '../../../src/mcp/types.js';
import { deferred } from '../../support/deferred.js';
import { redisUrl } from '../../setup/context.js';
import { handClock } from '../support.js';
import { REDIRECT, SERVER, startAuthFixture, testVault, type AuthFixture } from './support.js';

let fixture: AuthFixture;
let redis: Redis;

beforeAll(async () => {
  fixture = await startAuthFixture();
  redis = new Redis(redisUrl());
});
afterAll(async () => {
  await redis.quit();
  await fixture.close();
});

/**
 * Each person's sessions sign in with the vault's records and the shared registrations on `timers`; `sent`
 * resolves with the authorization URL the person is sent to, and `callback` lands their approval.
 */
function sharedClientAuth(vault: TokenVault, timers: RegistrationTimers) {
  const sent = deferred<URL>();
  const signedIn = deferred();
  const providerFor = (person: Person): SignInProvider =>
    new SignInProvider({
      redirectUrl: REDIRECT,
      clientName: 'elicit-relay test',
      storage: vault.storage(SERVER, person),
      registrations: vault.registrations(SERVER, timers),
      state: () => vault.issueState({ server: SERVER, person }),
      onRedirect: (url) => Promise.resolve(sent.resolve(url)),
    });
  const auth: McpAuth = {
    personal: () => true,
    forSession: (_server, origin) => {
      if (origin === undefined) return Promise.resolve(undefined);
      const person = { teamId: origin.teamId ?? 'T1', userId: origin.userId };
      return Promise.resolve({ provider: providerFor(person), signedIn: () => signedIn.promise });
    },
  };
  const callback = async (url: URL): Promise<void> => {
    const state = url.searchParams.get('state') ?? '';
    const binding = await vault.consumeState(state);
    const code = url.searchParams.get('code') ?? '';
    await exchangeCode(providerFor(binding.person), fixture.server.url.href, code);
    signedIn.resolve();
  };
  return { auth, sent: sent.promise, callback };
}

describe('the handshake’s bound while the client signs in', () => {
  it('does not count a registration claim another replica holds past the bound as the server’s silence', async () => {
    const time = handClock(Date.now());
    const vault = testVault(redis, fixture.prefix, () => time.clock.now());
    const issuer = fixture.oauth.issuer.href.replace(/\/$/, '');
    const waiting = deferred();
    // The session's re-reads of the claim: the first says it waits; each takes a moment of real time.
    const timers: RegistrationTimers = {
      now: () => time.clock.now(),
      sleep: async (ms) => {
        waiting.resolve();
        await sleep(ms);
      },
    };
    // Another replica claims the registration (for REGISTRATION_CLAIM_MS on the shared clock) and stays silent.
    const other = vault.registrations(SERVER, {
      now: () => time.clock.now(),
      sleep: () => Promise.reject(new Error()),
    });
    expect(await other.claim(issuer)).toBeUndefined();

    const spec: McpServerSpec = {
      name: SERVER,
      transport: { kind: 'http', url: fixture.server.url.href, headers: {} },
      elicitationTimeoutMs: 60_000,
    };
    const { auth, sent, callback } = sharedClientAuth(vault, timers);
    const hub = new McpHub({
      servers: [spec],
      sink: { ask: () => Promise.resolve({ action: 'decline' }) },
      clock: time.clock,
      auth,
    });
    try {
      const origin = { teamId: 'T1', userId: 'UANN' };
      const run = hub.callTool({ server: SERVER, tool: 'whoami', args: {}, origin });
      await waiting.promise;
      // The whole bound of a probing connection passes while the claim is held; then the claim has lapsed too.
      time.advance(handshakeLimitMs(spec, true));
      const authorization = await sent;
      await callback(await fixture.oauth.decide(authorization, 'ann@example.com'));
      expect((await run).text).toContain('ann@example.com');
      expect(fixture.oauth.clients.size).toBe(1);
    } finally {
      await hub.close();
    }
  });
});
