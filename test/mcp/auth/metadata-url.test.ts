// `auth.metadataUrl` (src/mcp/auth/as-metadata.ts) on real Redis, against the OAuth fixture and protected MCP
// servers whose protected resource metadata is absent or names an authorization server that is not there:
// without the setting nobody can sign in; with it the bot takes the authorization server from the config,
// the person signs in, and their call runs with a token issued for the configured MCP URL. A metadata URL at a
// well-known path whose document names another issuer is refused (RFC 8414 §3.3), as the SDK's own discovery does.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  McpHub,
  PersonAuth,
  VaultConnections,
  type PersonGrants,
  type PersonSignInServer,
} from '../../../src/mcp/index.js';
import { startOAuthServer, type OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/protected-server.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { uniquePrefix } from '../../setup/context.js';
import { startWakes, testGrants, testVault, type WakesOnRedis } from './support.js';

const ANN = { teamId: 'T1', userId: 'UANN' };

let oauth: OAuthServer;
let absent: ProtectedServer;
let wrong: ProtectedServer;
let prefix: string;
let onRedis: WakesOnRedis;

beforeAll(async () => {
  oauth = await startOAuthServer();
  absent = await startProtectedServer(oauth, { resourceMetadata: 'absent' });
  wrong = await startProtectedServer(oauth, { resourceMetadata: 'wrong' });
  prefix = uniquePrefix();
  onRedis = await startWakes(prefix);
});
afterAll(async () => {
  await onRedis.close();
  await Promise.all([absent.close(), wrong.close()]);
  await oauth.close();
  await deleteUnder(prefix);
});

function parts(servers: PersonSignInServer[]) {
  const vault = testVault(onRedis.redis, prefix);
  const grants = testGrants(vault, servers);
  return {
    grants,
    connections: new VaultConnections({ grants, vault, wakes: onRedis.wakes, now: Date.now }),
  };
}

/** Runs `whoami` on `name` as ANN, who is already connected. */
async function whoami(grants: PersonGrants, name: string, url: URL): Promise<string> {
  const hub = new McpHub({
    servers: [
      { name, transport: { kind: 'http', url: url.href, headers: {} }, elicitationTimeoutMs: 60_000 },
    ],
    sink: { ask: () => Promise.resolve({ action: 'decline' }) },
    auth: new PersonAuth({ grants, wakes: onRedis.wakes }),
  });
  try {
    return (await hub.callTool({ server: name, tool: 'whoami', args: {}, origin: ANN })).text;
  } finally {
    await hub.close();
  }
}

const AS_METADATA = (): string => new URL('/.well-known/oauth-authorization-server', oauth.issuer).href;

describe('auth.metadataUrl', () => {
  it('cannot sign anyone in to a server whose resource metadata is absent or wrong without it', async () => {
    const { connections } = parts([
      { name: 'absent', url: absent.url.href },
      { name: 'wrong', url: wrong.url.href },
    ]);
    await expect(connections.begin('absent', ANN)).rejects.toMatchObject({ code: 'discovery_failed' });
    await expect(connections.begin('wrong', ANN)).rejects.toMatchObject({ code: 'discovery_failed' });
  });

  it.each([
    ['absent', () => absent],
    ['wrong', () => wrong],
  ])(
    'signs a person in to a server whose resource metadata is %s through the configured authorization server',
    async (name, server) => {
      const url = server().url;
      const { grants, connections } = parts([{ name, url: url.href, metadataUrl: AS_METADATA() }]);
      const need = await connections.begin(name, ANN);
      expect(need.authorizationUrl.origin).toBe(oauth.issuer.origin);
      expect(need.authorizationUrl.searchParams.get('resource')).toBe(url.href);
      const callback = await oauth.decide(need.authorizationUrl, `ann-${name}@example.com`);
      await connections.complete({
        state: callback.searchParams.get('state') ?? '',
        code: callback.searchParams.get('code') ?? '',
        iss: callback.searchParams.get('iss') ?? '',
      });
      const { tokens } = await grants.record(name, ANN);
      expect(oauth.verify(tokens?.access_token ?? '')?.resource).toBe(url.href);
      expect(await whoami(grants, name, url)).toContain(`ann-${name}@example.com`);
    },
  );

  it('refuses a well-known metadata URL whose document names another issuer', async () => {
    // Another host serves the fixture's metadata (its issuer and endpoints) at its own well-known path.
    const document = await (await fetch(AS_METADATA())).text();
    const elsewhere = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(document);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = elsewhere.address() as AddressInfo;
      const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-authorization-server`;
      const { connections } = parts([{ name: 'absent', url: absent.url.href, metadataUrl }]);
      await expect(connections.begin('absent', ANN)).rejects.toMatchObject({
        code: 'discovery_failed',
        cause: { code: 'discovery_failed', message: expect.stringContaining('names the issuer') as unknown },
      });
    } finally {
      elsewhere.closeAllConnections();
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  });

  it('fails with discovery_failed naming the setting when the metadata URL serves none', async () => {
    const { connections } = parts([
      { name: 'absent', url: absent.url.href, metadataUrl: new URL('/nothing-here', oauth.issuer).href },
    ]);
    await expect(connections.begin('absent', ANN)).rejects.toMatchObject({
      code: 'discovery_failed',
      cause: { code: 'discovery_failed', message: expect.stringContaining('auth.metadataUrl') as unknown },
    });
  });
});
