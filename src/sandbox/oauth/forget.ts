// Each sandbox run seals tokens with a key of its own, which cannot open what an earlier run on the same Redis
// prefix sealed (a person's grant there would fail every call to its server: "could not connect"). So at start
// the sandbox's people are signed out of every server that signs people in, and connect again when asked.
import type { RedisConfig, ServerConfig } from '../../config/index.js';
import type { Logger } from '../../logger.js';
import { Sealer, TokenVault } from '../../mcp/index.js';
import { RedisConnections, endClient, keys } from '../../redis/index.js';

export interface ForgetSignIns {
  redis: RedisConfig;
  servers: ServerConfig[];
  /** The sandbox's people (Slack user ids). */
  people: string[];
  /** This run's token key (the vault deletes without opening anything). */
  tokenKey: Buffer;
  logger: Logger;
}

export async function forgetEarlierSignIns(opts: ForgetSignIns): Promise<void> {
  const signing = opts.servers.filter((s) => s.auth?.mode === 'oauth').map((s) => s.name);
  if (signing.length === 0) return;
  const factory = new RedisConnections(opts.redis, opts.logger);
  const redis = await factory.command(keys(opts.redis.prefix).connectionName('sandbox-sign-outs', 'sandbox'));
  try {
    const vault = new TokenVault(redis, opts.redis.prefix, new Sealer(opts.tokenKey));
    // The bot keeps one workspace's grants without its team id (PersonGrants.personOf).
    const grants = signing.flatMap((server) => opts.people.map((userId) => ({ server, userId })));
    await Promise.all(grants.map(({ server, userId }) => vault.remove(server, { teamId: '', userId })));
  } finally {
    await endClient(redis, true);
  }
}
