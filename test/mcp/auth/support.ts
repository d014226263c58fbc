// The OAuth fixture shared by the sign-in tests on real Redis: the local authorization server, the protected
// MCP server behind it, one key prefix, and replicas that each have their own Redis connections, vault, wakes
// and grants (the vault's records shared through Redis under the prefix); and those parts one by one, for the
// tests that start other servers.
import { Redis } from 'ioredis';
import {
  PersonGrants,
  Sealer,
  SignInWakes,
  TokenVault,
  VaultConnections,
  type McpLogger,
  type PersonSignInServer,
} from '../../../src/mcp/index.js';
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

/** `tracker`: how the protected server answers (its scope challenge's status, its metadata). */
export async function startAuthFixture(
  tracker: Parameters<typeof startProtectedServer>[1] = {},
): Promise<AuthFixture> {
  const oauth = await startOAuthServer();
  const server = await startProtectedServer(oauth, tracker);
  const prefix = uniquePrefix();
  const started: WakesOnRedis[] = [];
  const replica = async (): Promise<AuthReplica> => {
    const onRedis = await startWakes(prefix);
    started.push(onRedis);
    const { redis, wakes } = onRedis;
    const vault = testVault(redis, prefix);
    const grants = testGrants(vault, [{ name: SERVER, url: server.url.href }]);
    const connections = new VaultConnections({ grants, vault, wakes, now: Date.now });
    return { vault, wakes, grants, connections };
  };
  const close = async (): Promise<void> => {
    await Promise.all(started.map((s) => s.close()));
    await server.close();
    await oauth.close();
    await deleteUnder(prefix);
  };
  return { oauth, server, prefix, replica, close };
}

/** One replica's Redis connections (commands, and a subscriber) and its sign-in wakes on them. */
export interface WakesOnRedis {
  redis: Redis;
  subscriber: Redis;
  wakes: SignInWakes;
  /** Stops the wakes and closes both connections. */
  close(): Promise<void>;
}

/** Connects to the run's Redis and starts sign-in wakes under `prefix`. */
export async function startWakes(prefix: string): Promise<WakesOnRedis> {
  const [redis, subscriber] = [new Redis(redisUrl()), new Redis(redisUrl())];
  const wakes = new SignInWakes(subscriber, redis, `${prefix}:auth:signed-in`);
  await wakes.start();
  const close = async (): Promise<void> => {
    await wakes.stop();
    await Promise.all([redis.quit(), subscriber.quit()]);
  };
  return { redis, subscriber, wakes, close };
}

/** The token vault under `prefix`, sealed with the tests' one key; `now` its clock (ms). */
export function testVault(redis: Redis, prefix: string, now: () => number = Date.now): TokenVault {
  return new TokenVault(redis, prefix, new Sealer(Buffer.alloc(32, 7)), now);
}

/**
 * People's grants to `servers` over `vault`, as a bot serving several workspaces keeps them; `logger` hears
 * an unsaved refresh's revocation that failed.
 */
export function testGrants(
  vault: TokenVault,
  servers: PersonSignInServer[],
  now: () => number = Date.now,
  logger?: McpLogger,
): PersonGrants {
  return new PersonGrants({
    servers,
    vault,
    redirectUrl: REDIRECT,
    clientName: 'elicit-relay test',
    oneWorkspace: false,
    now,
    logger,
  });
}
