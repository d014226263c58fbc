// The OAuth authorization server fixture and the protected MCP fixture, driven by the MCP SDK's own OAuth client
// (v2 client, in-memory provider here): they must behave as the MCP authorization spec says before the bot's
// sign-in is tested against them.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { startOAuthServer, type OAuthServer } from '../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/protected-server.js';

const REDIRECT = 'http://127.0.0.1:9/oauth/mcp/callback';

/** One person's provider, kept in memory; redirects are recorded for the test to follow. */
class MemoryProvider implements OAuthClientProvider {
  redirects: URL[] = [];
  private client: StoredOAuthClientInformation | undefined;
  private stored: StoredOAuthTokens | undefined;
  private verifier = '';
  readonly redirectUrl = REDIRECT;
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'fixture test',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_post',
    };
  }
  clientInformation = (): StoredOAuthClientInformation | undefined => this.client;
  saveClientInformation = (info: StoredOAuthClientInformation): void => void (this.client = info);
  tokens = (): StoredOAuthTokens | undefined => this.stored;
  saveTokens = (tokens: StoredOAuthTokens): void => void (this.stored = tokens);
  redirectToAuthorization = (url: URL): void => void this.redirects.push(url);
  saveCodeVerifier = (verifier: string): void => void (this.verifier = verifier);
  codeVerifier = (): string => this.verifier;
  invalidateCredentials = (scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void => {
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  };
}

let oauth: OAuthServer;
let server: ProtectedServer;

beforeAll(async () => {
  oauth = await startOAuthServer({ accessTokenTtlSec: 60 });
  server = await startProtectedServer(oauth);
});
afterAll(async () => {
  await server.close();
  await oauth.close();
});

async function connect(provider: MemoryProvider): Promise<Client> {
  const client = new Client({ name: 'fixture-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(server.url, { authProvider: provider }));
  return client;
}

/** Connects, and when sign-in is needed approves as `subject` on the consent page and finishes it. */
async function signIn(provider: MemoryProvider, subject: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(server.url, { authProvider: provider });
  const first = new Client({ name: 'fixture-test', version: '1.0.0' });
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  const authorizationUrl = provider.redirects.at(-1);
  if (authorizationUrl === undefined) throw new Error('no redirect');
  const callback = await oauth.decide(authorizationUrl, subject);
  await transport.finishAuth(callback.searchParams);
  return connect(provider);
}

const text = (result: Awaited<ReturnType<Client['callTool']>>): unknown =>
  'content' in result ? result.content[0] : undefined;

describe('protected MCP fixture with the OAuth fixture', () => {
  it('answers 401 with WWW-Authenticate naming its protected resource metadata', async () => {
    const response = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(
      `resource_metadata="${server.url.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = (await (
      await fetch(new URL('/.well-known/oauth-protected-resource/mcp', server.url))
    ).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(metadata).toMatchObject({
      resource: server.url.href,
      authorization_servers: [oauth.issuer.origin],
    });
  });

  it("signs each person in with PKCE and the resource indicator; whoami answers that person's subject", async () => {
    const alice = new MemoryProvider();
    const aliceClient = await signIn(alice, 'alice');
    const url = alice.redirects[0];
    expect(url?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url?.searchParams.get('resource')).toBe(server.url.href);
    const bobClient = await signIn(new MemoryProvider(), 'bob');
    expect(text(await aliceClient.callTool({ name: 'whoami' }))).toEqual({ type: 'text', text: 'alice' });
    expect(text(await bobClient.callTool({ name: 'whoami' }))).toEqual({ type: 'text', text: 'bob' });
    await Promise.all([aliceClient.close(), bobClient.close()]);
  });

  it('refreshes an expired access token, and asks to sign in again once the grant is revoked', async () => {
    const carol = new MemoryProvider();
    const client = await signIn(carol, 'carol');
    oauth.expireAccessTokens();
    const before = oauth.tokenRequests.length;
    expect(text(await client.callTool({ name: 'whoami' }))).toEqual({ type: 'text', text: 'carol' });
    // The SDK client may refresh once per request in flight (its POST and its GET stream): each is a refresh.
    const since = oauth.tokenRequests.slice(before);
    expect(since.length).toBeGreaterThan(0);
    expect(new Set(since.map((r) => JSON.stringify(r)))).toEqual(
      new Set([JSON.stringify({ grantType: 'refresh_token', subject: 'carol' })]),
    );
    oauth.revokeGrants('carol');
    oauth.expireAccessTokens();
    await expect(client.callTool({ name: 'whoami' })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(oauth.tokenRequests.at(-1)).toEqual({ grantType: 'refresh_token', error: 'invalid_grant' });
    expect(carol.redirects).toHaveLength(2);
    await client.close();
  });

  it('answers insufficient_scope for admin_report until the admin scope is granted (step-up)', async () => {
    const dave = new MemoryProvider();
    const client = await signIn(dave, 'dave');
    await expect(client.callTool({ name: 'admin_report' })).rejects.toBeInstanceOf(UnauthorizedError);
    const stepUp = dave.redirects.at(-1);
    expect(stepUp?.searchParams.get('scope')?.split(' ')).toContain('admin');
    if (stepUp === undefined) throw new Error('no step-up redirect');
    const callback = await oauth.decide(stepUp, 'dave');
    const transport = new StreamableHTTPClientTransport(server.url, { authProvider: dave });
    await transport.finishAuth(callback.searchParams);
    const upgraded = await connect(dave);
    expect(text(await upgraded.callTool({ name: 'admin_report' }))).toEqual({
      type: 'text',
      text: 'report for dave',
    });
    await Promise.all([client.close(), upgraded.close()]);
  });
});

describe('OAuth fixture refusals', () => {
  const register = async (): Promise<{ client_id: string; client_secret: string }> =>
    (await (
      await fetch(new URL('/register', oauth.issuer), {
        method: 'POST',
        body: JSON.stringify({ redirect_uris: [REDIRECT] }),
      })
    ).json()) as { client_id: string; client_secret: string };

  async function codeFor(clientId: string, verifier: string): Promise<string> {
    const url = new URL('/authorize', oauth.issuer);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    for (const [key, value] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: server.url.href,
      state: 's1',
    })) {
      url.searchParams.set(key, value);
    }
    return (await oauth.decide(url, 'erin')).searchParams.get('code') ?? '';
  }

  const exchange = (client: { client_id: string; client_secret: string }, code: string, verifier: string) =>
    fetch(new URL('/token', oauth.issuer), {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }),
    });

  it('refuses a wrong PKCE verifier and a replayed code with invalid_grant', async () => {
    const client = await register();
    const wrong = await exchange(client, await codeFor(client.client_id, 'v'.repeat(43)), 'w'.repeat(43));
    expect([wrong.status, await wrong.json()]).toMatchObject([400, { error: 'invalid_grant' }]);
    const code = await codeFor(client.client_id, 'v'.repeat(43));
    expect((await exchange(client, code, 'v'.repeat(43))).status).toBe(200);
    const replay = await exchange(client, code, 'v'.repeat(43));
    expect([replay.status, await replay.json()]).toMatchObject([400, { error: 'invalid_grant' }]);
  });

  it('redirects with invalid_target for an unknown resource and access_denied on Deny', async () => {
    const client = await register();
    const url = new URL('/authorize', oauth.issuer);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
      resource: 'http://elsewhere.example/mcp',
      state: 's2',
    }).toString();
    const refused = await oauth.decide(url, 'erin');
    expect(Object.fromEntries(refused.searchParams)).toMatchObject({ error: 'invalid_target', state: 's2' });
    url.searchParams.set('resource', server.url.href);
    const denied = await oauth.decide(url, 'erin', 'deny');
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: 'access_denied', state: 's2' });
  });

  it('shows a consent page with an Allow button naming the scopes', async () => {
    const client = await register();
    const url = new URL('/authorize', oauth.issuer);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
      resource: server.url.href,
      scope: 'mcp admin',
    }).toString();
    const page = await (await fetch(url)).text();
    expect(page).toContain('<b id="scopes">mcp admin</b>');
    expect(page).toContain('value="allow">Allow</button>');
  });
});
