// Refreshing a person's grant at an authorization server that rotates refresh tokens (grant-refresh.ts), with
// the bot on two replicas sharing one vault in Redis: two refreshes at once leave the person connected, and a
// refresh in flight when they disconnect writes nothing back. Against the sandbox's authorization server behind
// a rotating front (rotating-as.ts), the protected tracker fixture, and real Redis under this file's own prefix
// (deleted afterwards).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  McpHub,
  PersonAuth,
  VaultConnections,
  type PersonGrants,
  type SignInNeeded,
  type TokenVault,
} from '../../../src/mcp/index.js';
import { startOAuthServer, type OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/protected-server.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { uniquePrefix } from '../../setup/context.js';
import { SERVER, startWakes, testGrants, testVault, type WakesOnRedis } from './support.js';
import { startRotatingServer, type RotatingServer } from './rotating-as.js';

let oauth: OAuthServer;
let front: RotatingServer;
let server: ProtectedServer;
let prefix: string;

interface Replica {
  onRedis: WakesOnRedis;
  vault: TokenVault;
  grants: PersonGrants;
  connections: VaultConnections;
  prompts: SignInNeeded[];
  hub: McpHub;
}
const replicas: Replica[] = [];

async function replica(): Promise<Replica> {
  const onRedis = await startWakes(prefix);
  const vault = testVault(onRedis.redis, prefix);
  const grants = testGrants(vault, [{ name: SERVER, url: server.url.href }]);
  const connections = new VaultConnections({ grants, vault, wakes: onRedis.wakes, now: Date.now });
  const prompts: SignInNeeded[] = [];
  const prompter = {
    prompt: (need: SignInNeeded) => {
      prompts.push(need);
      return Promise.resolve();
    },
  };
  const hub = new McpHub({
    servers: [
      {
        name: SERVER,
        transport: { kind: 'http', url: server.url.href, headers: {} },
        elicitationTimeoutMs: 60_000,
      },
    ],
    sink: { ask: () => Promise.resolve({ action: 'decline' }) },
    // A short wait: a call that (wrongly) waits for a new sign-in ends within the test.
    auth: new PersonAuth({ grants, wakes: onRedis.wakes, prompter, waitMs: 2_000 }),
  });
  const made = { onRedis, vault, grants, connections, prompts, hub };
  replicas.push(made);
  return made;
}

/** The person connects through `/mcp connect` on `r` and approves as `subject`. */
async function connect(
  r: Replica,
  person: { teamId: string; userId: string },
  subject: string,
): Promise<void> {
  const need = await r.connections.begin(SERVER, person);
  const callback = await oauth.decide(need.authorizationUrl, subject);
  await r.connections.complete({
    state: callback.searchParams.get('state') ?? '',
    code: callback.searchParams.get('code') ?? '',
  });
}

const whoami = (r: Replica, person: { teamId: string; userId: string }) =>
  r.hub.callTool({ server: SERVER, tool: 'whoami', args: {}, origin: person });

const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, code: (error as { code?: string }).code ?? String(error) }),
  );

beforeAll(async () => {
  oauth = await startOAuthServer();
  front = await startRotatingServer(oauth);
  server = await startProtectedServer(front.asOAuthServer);
  prefix = uniquePrefix();
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.hub.close()));
  await Promise.all(replicas.map((r) => r.onRedis.close()));
  await server.close();
  await front.close();
  await oauth.close();
  await deleteUnder(prefix);
});

describe('a grant refreshed at an authorization server that rotates refresh tokens', () => {
  it('survives two replicas refreshing the same expired access token at once: nobody is asked to connect again', async () => {
    const [a, b] = [await replica(), await replica()];
    const ann = { teamId: 'T1', userId: 'UANN' };
    await connect(a, ann, 'ann@example.com');
    oauth.expireAccessTokens();

    // Both replicas find the access token refused and refresh. The front holds the first refresh until a second
    // arrives (3 s at most); a second sent meanwhile with the same refresh token would be refused 0.5 s later,
    // once the first stored its new tokens. The bot sends the second only after the first saved (its claim).
    let release!: () => void;
    const bothArrived = new Promise<void>((resolve) => (release = resolve));
    front.beforeRefresh = async (n) => {
      if (n === 2) release();
      await Promise.race([bothArrived, new Promise((r) => setTimeout(r, 3_000))]);
      if (n === 2) await new Promise((r) => setTimeout(r, 500));
    };
    const [onA, onB] = await Promise.all([settle(whoami(a, ann)), settle(whoami(b, ann))]);
    front.beforeRefresh = undefined;

    expect(
      front.refreshes.length,
      'the scenario needs both replicas to have refreshed',
    ).toBeGreaterThanOrEqual(2);
    expect(
      front.refreshes.filter((r) => r.refused),
      'no refresh presents a refresh token another already spent (a server with reuse detection revokes the grant)',
    ).toEqual([]);
    const record = await a.grants.record(SERVER, ann);
    const prompts = [...a.prompts, ...b.prompts].map((p) => `${p.reason}`);
    expect(
      { onA: onA.ok, onB: onB.ok, prompts, tokensKept: record.tokens !== undefined },
      'a refresh that lost the race to another replica (its spent refresh token refused with invalid_grant) must ' +
        'use the tokens the winner stored, not delete them and DM the person "Your access was revoked. Connect again"',
    ).toEqual({ onA: true, onB: true, prompts: [], tokensKept: true });
  });

  it('/mcp disconnect during a refresh in flight leaves no tokens behind', async () => {
    const [a] = [await replica()];
    const bob = { teamId: 'T1', userId: 'UBOB' };
    await connect(a, bob, 'bob@example.com');
    oauth.expireAccessTokens();

    // The refresh reached the authorization server; its answer is still on the way when Bob disconnects.
    let answerHeld!: () => void;
    const held = new Promise<void>((resolve) => (answerHeld = resolve));
    let letGo!: () => void;
    const go = new Promise<void>((resolve) => (letGo = resolve));
    front.beforeRefreshAnswer = () => {
      answerHeld();
      return go;
    };
    const call = settle(whoami(a, bob));
    await held;
    expect(await a.connections.disconnect(SERVER, bob)).toBe(true);
    letGo();
    await call;
    front.beforeRefreshAnswer = undefined;

    const record = await a.grants.record(SERVER, bob);
    const listed = await a.connections.list(bob);
    expect(
      { tokensInVault: record.tokens !== undefined, listed: listed.map((c) => c.server) },
      'after "/mcp disconnect" answered "the bot no longer holds your access", a refresh that was in flight must ' +
        "not write the person's tokens back into the vault (the grant would be used again for calls as them)",
    ).toEqual({ tokensInVault: false, listed: [] });
    // What the resurrected grant means: another call runs as Bob without any new sign-in.
    const again = await settle(whoami(a, bob));
    expect(again.ok ? again.value.text : `refused: ${again.code}`).not.toContain('bob@example.com');
  });
});
