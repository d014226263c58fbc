// The OAuth fixture shared by the sign-in tests on real Redis: the local authorization server, the protected
// MCP server behind it, one key prefix, and replicas that each have their own Redis connections, vault, wakes
// and grants (the vault's records shared through Redis under the prefix).
import { Redis } from 'ioredis';
import { PersonGrants, Sealer, SignInWakes, TokenVault, VaultConnections } from '../../../src/mcp/index.js';
import { startOAuthServer, type OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/protected-server.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';

export const REDIRECT = 'https://bot.example.com/oauth/mcp/callback';
/** The one server people sign in to, at the protected server's URL. */
export const SERVER = 'tracker';

/** One replica's sign-in parts. */
export interface AuthReplica {
  vault: TokenVault;
  wakes: SignInWakes;
  grants: PersonGrants;
  connections: VaultConnections;
}

export interface AuthFixture {
  oauth: OAuthServer;
  server: ProtectedServer;
  prefix: string;
  /** A new replica on the fixture's prefix, its wakes started. */
  replica(): Promise<AuthReplica>;
  /** Stops every replica's wakes and both servers, deletes the prefix's keys, closes the Redis connections. */
  close(): Promise<void>;
}

export async function startAuthFixture(): Promise<AuthFixture> {
  const oauth = await startOAuthServer();
  const server = await startProtectedServer(oauth);
  const prefix = uniquePrefix();
  const clients: Redis[] = [];
  const wakes: SignInWakes[] = [];
  const replica = async (): Promise<AuthReplica> => {
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
    const connections = new VaultConnections({ grants, vault, wakes: signedIn, now: Date.now });
    return { vault, wakes: signedIn, grants, connections };
  };
  const close = async (): Promise<void> => {
    await Promise.all(wakes.map((w) => w.stop()));
    await server.close();
    await oauth.close();
    await deleteUnder(prefix);
    await Promise.all(clients.map((client) => client.quit()));
  };
  return { oauth, server, prefix, replica, close };
}
