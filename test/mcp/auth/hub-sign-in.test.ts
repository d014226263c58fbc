// The hub signing people in (src/mcp/auth) against the real OAuth fixture and protected MCP fixture over HTTP,
// tokens in the Redis vault: a call that needs sign-in waits, the person approves, the callback's state is
// consumed and the code exchanged, and the call goes on by itself with that person's token; nobody else's.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exchangeCode,
  McpHub,
  SignInProvider,
  type McpAuth,
  type Person,
  type SessionAuth,
} from '../../../src/mcp/index.js';
import { Sealer } from '../../../src/mcp/auth/sealed.js';
import { TokenVault } from '../../../src/mcp/auth/vault.js';
import { startOAuthServer, type OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/protected-server.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';
import { deferred } from '../../support/deferred.js';

const REDIRECT = 'https://bot.example.com/oauth/mcp/callback';
const SERVER = 'tracker';

let oauth: OAuthServer;
let server: ProtectedServer;
let redis: Redis;
let prefix: string;
let vault: TokenVault;
/** Authorization URLs the people were sent to, per user id (what the Connect message would link to). */
const prompts = new Map<string, URL[]>();
/** Who the test is waiting to see sent to sign in (the Connect message being posted, in the bot). */
const prompted = new Map<string, () => void>();

beforeAll(async () => {
  oauth = await startOAuthServer();
  server = await startProtectedServer(oauth);
  redis = new Redis(redisUrl());
  prefix = uniquePrefix();
  vault = new TokenVault(redis, prefix, new Sealer(Buffer.alloc(32, 3)));
});
afterAll(async () => {
  await server.close();
  await oauth.close();
  await deleteUnder(prefix);
  await redis.quit();
});

/**
 * Each person's sessions (of `target`): a SignInProvider over the vault; signedIn() resolves when their
 * callback lands.
 */
function vaultAuth(target = (): ProtectedServer => server): McpAuth & { callback(url: URL): Promise<void> } {
  // One sign-in awaited per person, made when they are sent to sign in (before the hub can wait on it).
  const waiting = new Map<string, { done: Promise<void>; resolve: () => void }>();
  const providerFor = (person: Person): SignInProvider =>
    new SignInProvider({
      redirectUrl: REDIRECT,
      clientName: 'elicit-relay test',
      storage: vault.storage(SERVER, person),
      state: () => vault.issueState({ server: SERVER, person }),
      onRedirect: (url) => {
        const { promise: done, resolve } = deferred();
        waiting.set(person.userId, { done, resolve });
        prompts.set(person.userId, [...(prompts.get(person.userId) ?? []), url]);
        prompted.get(person.userId)?.();
        return Promise.resolve();
      },
    });
  return {
    forSession: (_server, origin) => {
      if (origin === undefined) return Promise.resolve(undefined);
      const person = { teamId: origin.teamId ?? 'T1', userId: origin.userId };
      const signedIn = () => waiting.get(person.userId)?.done ?? Promise.reject(new Error('no sign-in'));
      const sessionAuth: SessionAuth = { provider: providerFor(person), signedIn };
      return Promise.resolve(sessionAuth);
    },
    // What the callback route does: the state names the person; their code is exchanged into their record.
    async callback(url) {
      const state = url.searchParams.get('state') ?? '';
      const binding = await vault.consumeState(state);
      await exchangeCode(providerFor(binding.person), target().url.href, url.searchParams.get('code') ?? '');
      await vault.completedState(state);
      waiting.get(binding.person.userId)?.resolve();
    },
  };
}

/** Approves `userId`'s next sign-in at `at` as `subject`; resolves with where they were sent and the callback. */
async function approveNext(
  auth: ReturnType<typeof vaultAuth>,
  userId: string,
  subject: string,
  at = (): OAuthServer => oauth,
): Promise<{ authorization: URL; callback: URL }> {
  await new Promise<void>((resolve) => {
    if ((prompts.get(userId)?.length ?? 0) > 0) resolve();
    else prompted.set(userId, resolve);
  });
  const url = prompts.get(userId)?.shift();
  if (url === undefined) throw new Error('no prompt');
  const callback = await at().decide(url, subject);
  await auth.callback(callback);
  return { authorization: url, callback };
}

/** A hub with the one server `url`, signing in through `auth`. */
function hubOf(url: URL, auth: McpAuth): McpHub {
  return new McpHub({
    servers: [
      { name: SERVER, transport: { kind: 'http', url: url.href, headers: {} }, elicitationTimeoutMs: 60_000 },
    ],
    sink: { ask: () => Promise.resolve({ action: 'decline' }) },
    auth,
  });
}

describe('McpHub signing people in to a protected server', () => {
  it('waits for each person’s own sign-in, then runs their call with their token; a replayed state is refused', async () => {
    const auth = vaultAuth();
    const hub = hubOf(server.url, auth);
    try {
      const call = (userId: string) =>
        hub.callTool({ server: SERVER, tool: 'whoami', args: {}, origin: { teamId: 'T1', userId } });
      const ann = call('UANN');
      const { callback: used } = await approveNext(auth, 'UANN', 'ann@example.com');
      expect((await ann).text).toContain('ann@example.com');
      const bob = call('UBOB');
      await approveNext(auth, 'UBOB', 'bob@example.com');
      expect((await bob).text).toContain('bob@example.com');
      expect((await call('UANN')).text).toContain('ann@example.com');
      expect(prompts.get('UANN')).toEqual([]);
      await expect(auth.callback(used)).rejects.toMatchObject({ code: 'state_used' });
    } finally {
      await hub.close();
    }
  });

  it('sends a person whose grant was revoked mid-session to sign in once, and their call goes on', async () => {
    const auth = vaultAuth();
    const hub = hubOf(server.url, auth);
    try {
      const call = () =>
        hub.callTool({ server: SERVER, tool: 'whoami', args: {}, origin: { teamId: 'T1', userId: 'UCAT' } });
      const first = call();
      await approveNext(auth, 'UCAT', 'cat@example.com');
      expect((await first).text).toContain('cat@example.com');
      oauth.revokeGrants('cat@example.com');
      // The 401 on the open session must not be taken for a dead server: a liveness ping would meet the same
      // 401 and start a second sign-in, whose PKCE verifier replaces the one the person's link was made with.
      const again = call();
      await approveNext(auth, 'UCAT', 'cat@example.com');
      expect((await again).text).toContain('cat@example.com');
      expect(prompts.get('UCAT')).toEqual([]);
    } finally {
      await hub.close();
    }
  });

  it('signs the person in at the authorization server the server moved to, as a client registered there (SEP-2352)', async () => {
    const [first, second] = [await startOAuthServer(), await startOAuthServer()];
    const moving = await startProtectedServer(first);
    const auth = { ...vaultAuth(() => moving), personal: () => true };
    const origin = { teamId: 'T1', userId: 'UMOVE' };
    const [before, after] = [hubOf(moving.url, auth), hubOf(moving.url, auth)];
    try {
      const call = before.callTool({ server: SERVER, tool: 'whoami', args: {}, origin });
      await approveNext(auth, 'UMOVE', 'mo@example.com', () => first);
      expect((await call).text).toContain('mo@example.com');

      moving.moveTo(second);
      // Another hub (a restart): its sessions present the stored token of the first server, which is refused.
      const listing = after.listTools(SERVER, origin);
      const { authorization } = await approveNext(auth, 'UMOVE', 'mo@example.com', () => second);
      expect((await listing).map((tool) => tool.name)).toContain('whoami');
      expect(authorization.origin).toBe(second.issuer.origin);
      const clientId = authorization.searchParams.get('client_id') ?? '';
      expect([second.clients.has(clientId), first.clients.has(clientId)]).toEqual([true, false]);
      expect((await after.callTool({ server: SERVER, tool: 'whoami', args: {}, origin })).text).toContain(
        'mo@example.com',
      );
    } finally {
      await Promise.all([before.close(), after.close()]);
      await moving.close();
      await Promise.all([first.close(), second.close()]);
    }
  });
});
