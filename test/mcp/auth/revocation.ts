// The fixture of the revocation tests (RFC 7009, src/mcp/auth/revoke.ts) on real Redis: per test an
// authorization server (the sandbox's, its revocation endpoint answering as told), the protected server behind
// it, and the bot's grants and connections to it over one vault, every warning they log recorded; a person
// connected through `/mcp connect` and the authorization server's approval; and a refresh at the token endpoint,
// to tell whether a refresh token still works there.
import { Redis } from 'ioredis';
import {
  VaultConnections,
  type PersonGrants,
  type Person,
  type SignInRecord,
} from '../../../src/mcp/index.js';
import { startOAuthServer, type OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/protected-server.js';
import { deleteUnder } from '../../support/redis-cleanup.js';
import { redisUrl, uniquePrefix } from '../../setup/context.js';
import { SERVER, testGrants, testVault } from './support.js';

/** A person's grant as saved once they connected: both tokens, and the client that holds them. */
export interface Connected {
  tokens: NonNullable<SignInRecord['tokens']> & { refresh_token: string };
  client: NonNullable<SignInRecord['client']>;
}

/** One authorization server, its protected server, and the bot's parts for it. */
export interface RevocationBot {
  oauth: OAuthServer;
  server: ProtectedServer;
  grants: PersonGrants;
  connections: VaultConnections;
  /** `/mcp connect` to the server, approved as `subject` at the authorization server: the saved grant. */
  connect: (person: Person, subject: string) => Promise<Connected>;
  /** The token endpoint's answer to a refresh_token grant of `refreshToken` by `client`. */
  refreshAt: (client: Connected['client'] | undefined, refreshToken: string) => Promise<Response>;
}

/** Made once per test file: `open()` in beforeAll, `close()` in afterAll. */
export class RevocationFixture {
  /** What the bot's grants and connections logged as warnings, in order (a test may empty it). */
  readonly warnings: { obj: object; msg: string }[] = [];
  private readonly logger = {
    debug: () => undefined,
    warn: (obj: object, msg: string) => void this.warnings.push({ obj, msg }),
  };
  private readonly closers: (() => Promise<void>)[] = [];
  private redis: Redis | undefined;
  private prefix = '';

  /** Connects to Redis and takes a key prefix of its own. */
  open(): void {
    this.redis = new Redis(redisUrl());
    this.prefix = uniquePrefix();
  }

  /**
   * A new authorization server whose revocation endpoint answers `revocationStatus` (default: it revokes), its
   * protected server configured as `name` (default SERVER), and the bot's parts for it.
   */
  async bot(options: { name?: string; revocationStatus?: number | undefined } = {}): Promise<RevocationBot> {
    const { name = SERVER, revocationStatus } = options;
    if (this.redis === undefined) throw new Error('RevocationFixture: open() it in beforeAll first');
    const oauth = await startOAuthServer(revocationStatus === undefined ? {} : { revocationStatus });
    const server = await startProtectedServer(oauth);
    this.closers.push(
      () => server.close(),
      () => oauth.close(),
    );
    const { logger } = this;
    const vault = testVault(this.redis, this.prefix);
    const grants = testGrants(vault, [{ name, url: server.url.href }], Date.now, logger);
    const wakes = { announce: () => Promise.resolve() };
    const connections = new VaultConnections({ grants, vault, wakes, now: Date.now, logger });
    return {
      oauth,
      server,
      grants,
      connections,
      connect: (person, subject) => connectAs({ oauth, grants, connections }, name, person, subject),
      refreshAt: (client, refreshToken) => refreshAtServer(oauth, client, refreshToken),
    };
  }

  /** Stops every server started, deletes the prefix's keys and closes Redis. */
  async close(): Promise<void> {
    for (const close of this.closers) await close();
    if (this.redis === undefined) return; // never opened: no prefix of its own to delete
    await deleteUnder(this.prefix);
    await this.redis.quit();
  }
}

/** `/mcp connect` to `name` as `person`, approved as `subject`: the grant the bot saved. */
async function connectAs(
  bot: Pick<RevocationBot, 'oauth' | 'grants' | 'connections'>,
  name: string,
  person: Person,
  subject: string,
): Promise<Connected> {
  const need = await bot.connections.begin(name, person);
  const callback = await bot.oauth.decide(need.authorizationUrl, subject);
  await bot.connections.complete({
    state: callback.searchParams.get('state') ?? '',
    code: callback.searchParams.get('code') ?? '',
  });
  const { tokens, client } = await bot.grants.record(name, person);
  if (tokens?.refresh_token === undefined || client === undefined) throw new Error('not connected');
  return { tokens: { ...tokens, refresh_token: tokens.refresh_token }, client };
}

function refreshAtServer(
  oauth: OAuthServer,
  client: Connected['client'] | undefined,
  refreshToken: string,
): Promise<Response> {
  return fetch(new URL('/token', oauth.issuer), {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: client?.client_id ?? '',
      client_secret: client?.client_secret ?? '',
    }),
  });
}
