// The Connections contract (src/mcp/auth/connections.ts) and the hub's per-person sign-in (person-auth.ts) on
// real Redis, against the OAuth fixture and the protected Streamable HTTP fixture: begin gives an
// authorization URL with PKCE, `resource` and a bound `state`; complete consumes the state once, exchanges the
// code and wakes a call waiting on another replica; list and disconnect; API calls fail not_connected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  McpHub,
  PersonAuth,
  type SignInNeeded,
  type SignInWakes,
  type VaultConnections,
} from '../../../src/mcp/index.js';
import type { OAuthServer } from '../../../src/sandbox/oauth/index.js';
import type { ProtectedServer } from '../../fixtures/protected-server.js';
import { REDIRECT, SERVER, startAuthFixture, type AuthFixture } from './support.js';

const ANN = { teamId: 'T1', userId: 'UANN' };

let fixture: AuthFixture;
let oauth: OAuthServer;
let server: ProtectedServer;

/** One replica's sign-in parts: its own Redis connections and subscriber, one vault shared through Redis. */
interface Replica {
  connections: VaultConnections;
  wakes: SignInWakes;
  prompts: SignInNeeded[];
  promptedAgain(): Promise<SignInNeeded>;
  hub(waitMs?: number): McpHub;
}

async function replica(): Promise<Replica> {
  const { connections, wakes, grants } = await fixture.replica();
  const prompts: SignInNeeded[] = [];
  const listeners: ((need: SignInNeeded) => void)[] = [];
  const prompter = {
    prompt: (need: SignInNeeded) => {
      prompts.push(need);
      for (const listener of listeners.splice(0)) listener(need);
      return Promise.resolve();
    },
  };
  return {
    connections,
    wakes,
    prompts,
    promptedAgain: () => new Promise((resolve) => listeners.push(resolve)),
    hub: (waitMs) =>
      new McpHub({
        servers: [
          {
            name: SERVER,
            transport: { kind: 'http', url: server.url.href, headers: {} },
            elicitationTimeoutMs: 60_000,
          },
        ],
        sink: { ask: () => Promise.resolve({ action: 'decline' }) },
        auth: new PersonAuth({ grants, wakes, prompter, ...(waitMs === undefined ? {} : { waitMs }) }),
      }),
  };
}

let a: Replica;
let b: Replica;

beforeAll(async () => {
  fixture = await startAuthFixture();
  ({ oauth, server } = fixture);
  [a, b] = [await replica(), await replica()];
});
afterAll(() => fixture.close());

const whoami = (hub: McpHub, origin: { teamId: string; userId: string; callId?: string }) =>
  hub.callTool({ server: SERVER, tool: 'whoami', args: {}, origin });

describe('VaultConnections', () => {
  it('begins with PKCE, the resource and a bound state; completes once; lists, then disconnects', async () => {
    const need = await a.connections.begin(SERVER, ANN);
    const asked = need.authorizationUrl.searchParams;
    expect(need).toMatchObject({ server: SERVER, person: ANN, reason: 'first', scopes: ['mcp', 'admin'] });
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('resource')).toBe(server.url.href);
    expect(asked.get('redirect_uri')).toBe(REDIRECT);

    const callback = await oauth.decide(need.authorizationUrl, 'ann@example.com');
    const params = {
      state: callback.searchParams.get('state') ?? '',
      code: callback.searchParams.get('code') ?? '',
    };
    // The callback lands on the other replica: the state and the verifier are in Redis.
    expect(await b.connections.complete(params)).toEqual({ server: SERVER, person: ANN });
    await expect(a.connections.complete(params)).rejects.toMatchObject({ code: 'state_used' });

    const [listed, ...more] = await a.connections.list(ANN);
    expect(more).toEqual([]);
    expect(listed?.server).toBe(SERVER);
    expect(listed?.scopes).toEqual(['mcp', 'admin']);
    // The fixture's tokens live 3600 s from when they were issued.
    expect((listed?.expiresAt?.getTime() ?? 0) - (listed?.connectedAt.getTime() ?? 0)).toBeGreaterThan(
      3_500_000,
    );
    expect(await a.connections.list({ teamId: 'T1', userId: 'UBOB' })).toEqual([]);

    expect(await b.connections.disconnect(SERVER, ANN)).toBe(true);
    expect(await a.connections.list(ANN)).toEqual([]);
    expect(await a.connections.disconnect(SERVER, ANN)).toBe(false);
  });

  it('completes two Connect links of one person in either order, each with its own PKCE verifier', async () => {
    const person = { teamId: 'T1', userId: 'UTWO' };
    const approved = async (need: SignInNeeded): Promise<{ state: string; code: string }> => {
      const callback = await oauth.decide(need.authorizationUrl, 'two@example.com');
      return {
        state: callback.searchParams.get('state') ?? '',
        code: callback.searchParams.get('code') ?? '',
      };
    };
    for (const order of ['older first', 'newer first']) {
      const older = await a.connections.begin(SERVER, person);
      const newer = await b.connections.begin(SERVER, person);
      const challenge = (need: SignInNeeded) => need.authorizationUrl.searchParams.get('code_challenge');
      expect(challenge(older)).not.toBe(challenge(newer));
      const links = order === 'older first' ? [older, newer] : [newer, older];
      const callbacks = [await approved(links[0] as SignInNeeded), await approved(links[1] as SignInNeeded)];
      // The first completion connects; the second connects again (new tokens), neither is refused.
      for (const params of callbacks)
        expect(await a.connections.complete(params)).toEqual({ server: SERVER, person });
      const [listed] = await a.connections.list(person);
      expect(listed?.server).toBe(SERVER);
    }
    expect(oauth.tokenRequests.filter((r) => r.subject === 'two@example.com')).toHaveLength(4);
    await a.connections.disconnect(SERVER, person);
  });

  it('refuses a forged state, a refused consent and a server that signs nobody in', async () => {
    await expect(a.connections.complete({ state: 'forged', code: 'x' })).rejects.toMatchObject({
      code: 'state_invalid',
    });
    const need = await a.connections.begin(SERVER, ANN);
    const refused = await oauth.decide(need.authorizationUrl, 'ann@example.com', 'deny');
    const state = refused.searchParams.get('state') ?? '';
    await expect(a.connections.complete({ state, error: 'access_denied' })).rejects.toMatchObject({
      code: 'denied',
      server: SERVER,
    });
    // Refused, the link connected nothing: it is spent, not "already completed".
    await expect(a.connections.complete({ state, code: 'x' })).rejects.toMatchObject({ code: 'state_spent' });
    await expect(a.connections.begin('other', ANN)).rejects.toMatchObject({ code: 'not_oauth_server' });
    await expect(a.connections.disconnect('other', ANN)).rejects.toMatchObject({ code: 'not_oauth_server' });
  });
});

describe('PersonAuth', () => {
  it('wakes a call waiting on one replica when its sign-in completes on another', async () => {
    const hub = a.hub();
    try {
      const person = { teamId: 'T1', userId: 'UCAT' };
      const prompted = a.promptedAgain();
      const call = whoami(hub, person);
      const need = await prompted;
      expect(need).toMatchObject({ server: SERVER, person, reason: 'first' });
      const callback = await oauth.decide(need.authorizationUrl, 'cat@example.com');
      await b.connections.complete({
        state: callback.searchParams.get('state') ?? '',
        code: callback.searchParams.get('code') ?? '',
      });
      expect((await call).text).toContain('cat@example.com');
      expect(a.wakes.waiting).toBe(0);
    } finally {
      await hub.close();
    }
  });

  it('opens no control link to a server people sign in to, and lists its tools in the person’s own session', async () => {
    const hub = a.hub();
    try {
      hub.start();
      expect(hub.status()[0]?.state).toBe('idle');
      // UCAT signed in above: their session lists the tools with their token.
      const tools = await hub.listTools(SERVER, { teamId: 'T1', userId: 'UCAT' });
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['whoami', 'admin_report']));
      expect(hub.status()[0]?.state).toBe('connected');
    } finally {
      await hub.close();
    }
  });

  it('fails an API call for a person who has not connected with not_connected, prompting nobody', async () => {
    const hub = a.hub();
    try {
      const before = a.prompts.length;
      await expect(whoami(hub, { teamId: 'T1', userId: 'UDAN', callId: 'call-1' })).rejects.toMatchObject({
        code: 'not_connected',
        server: SERVER,
      });
      expect(a.prompts.length).toBe(before);
    } finally {
      await hub.close();
    }
  });

  it('ends a call whose person does not sign in within the wait with sign_in_timeout', async () => {
    const hub = a.hub(300);
    try {
      await expect(whoami(hub, { teamId: 'T1', userId: 'UEVE' })).rejects.toMatchObject({
        code: 'sign_in_timeout',
        server: SERVER,
      });
      expect(a.wakes.waiting).toBe(0);
    } finally {
      await hub.close();
    }
  });
});
