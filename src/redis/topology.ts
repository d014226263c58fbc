// One RedisSetting (src/config/redis.ts) turned into an ioredis client of its topology: a Redis for one server
// or a Sentinel group (ioredis asks the sentinels for the master and follows failovers), a Cluster for Redis
// Cluster (ioredis follows MOVED/ASK and refreshes the slot map). Credentials and TLS apply to every node.
import { Cluster, Redis, ReplyError, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisNode, RedisSetting } from '../config/index.js';
import { catchAskings } from './asking.js';
import { redactUrl } from './errors.js';

export type { RedisNode, RedisSetting } from '../config/index.js';

/** A connected ioredis client of any topology; the rest of the bot names the type through this alias. */
export type RedisClient = Redis | Cluster;

/** The per-connection options the factory chooses (timeouts, retries, offline queue, name). */
export type ConnectionOptions = Omit<RedisOptions, 'sentinels' | 'name' | 'tls' | 'username' | 'password'> & {
  /**
   * Cluster only: whether connecting waits for CLUSTER INFO to answer cluster_state:ok (ioredis's
   * `enableReadyCheck`, default true). Ignored for a single Redis and Sentinel, whose per-node ready check stays.
   */
  clusterReadyCheck?: boolean;
};

/**
 * After a failover the old master may come back as a replica; a write sent there gets READONLY. Redis's error
 * code (the reply's first word, part of the protocol) says so; reconnecting re-resolves the master.
 */
function readOnlyReply(err: Error): boolean {
  return replyCode(err) === 'READONLY';
}

/**
 * Redis 6 (and 5) wraps the error a script's `redis.call` raised (OOM, READONLY, NOPERM...) in an ERR reply:
 * `ERR Error running script (call to f_<sha1>): @user_script:<line>: @user_script: <line>: -<CODE> <text>`, from
 * src/scripting.c of 6.2: evalGenericCommand's "Error running script (call to %s): %s", the error handler's
 * `source:line: ` and luaPushError's `%s: %d: %s` around the error reply, which keeps its leading '-'. Redis 7
 * replies with the command's own code first (`OOM ... script: <sha1>, on @user_script:<line>.`).
 */
const REDIS6_SCRIPT_ERROR =
  /^ERR Error running script \(call to f_[0-9a-f]{40}\): (?:@user_script:\d+: )?(?:@user_script: \d+: )?-([A-Z]+) /;

/**
 * Redis's error code: the first word of an error reply (WRONGPASS, NOAUTH, READONLY...), or of the error a script
 * met, which Redis 6 wraps (REDIS6_SCRIPT_ERROR); '' for other errors.
 */
export function replyCode(err: unknown): string {
  if (!(err instanceof ReplyError && err instanceof Error)) return '';
  return REDIS6_SCRIPT_ERROR.exec(err.message)?.[1] ?? err.message.split(' ', 1)[0] ?? '';
}

function access(setting: RedisSetting): Pick<RedisOptions, 'username' | 'password' | 'tls'> {
  return {
    ...(setting.username === undefined ? {} : { username: setting.username }),
    ...(setting.password === undefined ? {} : { password: setting.password }),
    ...(setting.tls === undefined ? {} : { tls: { ...setting.tls } }),
  };
}

/**
 * One Redis's URL without its user and password, and the credentials to sign in with: the URL's own user and
 * password where it has them, else REDIS_USERNAME and REDIS_PASSWORD (README: "for REDIS_URL, the URL's own
 * win"). ioredis fills options in only where the URL is silent, and reads `redis://bot@host` as the password ""
 * (`redis://:pw@host` as the user ""), which would hide the settings behind an empty value.
 */
export function urlTarget(
  url: string,
  settings: Pick<RedisSetting, 'username' | 'password'>,
): { url: string; username?: string; password?: string } {
  const parsed = new URL(url);
  // Percent-decoded as ioredis reads them (a WHATWG URL keeps them encoded).
  const username = decodeURIComponent(parsed.username) || settings.username;
  const password = decodeURIComponent(parsed.password) || settings.password;
  parsed.username = '';
  parsed.password = '';
  return {
    url: parsed.href,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
  };
}

/** An unconnected client (lazyConnect) of the setting's topology with the given per-connection options. */
export function buildClient(setting: RedisSetting, options: ConnectionOptions): RedisClient {
  const { retryStrategy, enableOfflineQueue, clusterReadyCheck, ...perNode } = options;
  if (setting.topology === 'cluster') {
    const clusterOptions: ClusterOptions = {
      lazyConnect: true,
      ...(clusterReadyCheck === undefined ? {} : { enableReadyCheck: clusterReadyCheck }),
      ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
      redisOptions: { ...perNode, ...access(setting) },
      // Same back-off as a single Redis between attempts to reach any node (retryStrategy gets attempt counts).
      clusterRetryStrategy: (attempt) => retryStrategy?.(attempt) ?? null,
      // A failover takes the cluster down for a few seconds (cluster-node-timeout); commands wait that out in
      // ioredis's retries (every 200 ms, up to maxRedirections times) instead of failing at once.
      retryDelayOnClusterDown: 200,
      retryDelayOnFailover: 200,
      // The first slots refresh is how a Cluster client connects: it gets the time a single Redis gets to
      // connect (connectTimeout, 3 s) instead of ioredis's 1 s default, which a busy node missed at load 18.
      ...(perNode.connectTimeout === undefined ? {} : { slotsRefreshTimeout: perNode.connectTimeout }),
    };
    // ASK redirects during a resharding leave no unhandled rejection when a node's connection closes (asking.ts).
    return catchAskings(new Cluster(setting.nodes, clusterOptions));
  }
  const base: RedisOptions = { ...perNode, ...access(setting), lazyConnect: true };
  if (retryStrategy !== undefined) base.retryStrategy = retryStrategy;
  if (enableOfflineQueue !== undefined) base.enableOfflineQueue = enableOfflineQueue;
  if (setting.topology === 'sentinel') {
    return new Redis({
      ...base,
      sentinels: setting.sentinels,
      name: setting.master,
      ...(setting.sentinelPassword === undefined ? {} : { sentinelPassword: setting.sentinelPassword }),
      ...(setting.tls === undefined
        ? {}
        : { enableTLSForSentinelMode: true, sentinelTLS: { ...setting.tls } }),
      reconnectOnError: readOnlyReply,
      sentinelRetryStrategy: (attempt) => retryStrategy?.(attempt) ?? null,
    });
  }
  const { url, ...credentials } = urlTarget(setting.url, setting);
  return new Redis(url, { ...base, ...credentials });
}

/** Where the setting points, for messages and logs (no password). */
export function describeSetting(setting: RedisSetting): string {
  if (setting.topology === 'cluster') return `Redis Cluster ${nodeList(setting.nodes)}`;
  if (setting.topology === 'sentinel') {
    return `master "${setting.master}" of the sentinels ${nodeList(setting.sentinels)}`;
  }
  return redactUrl(setting.url);
}

export function nodeList(nodes: RedisNode[]): string {
  return nodes.map((n) => `${n.host}:${n.port}`).join(',');
}

/**
 * True when the Redis behind `client` serves commands now. On Cluster, a PING answered by any node is not
 * enough: while a master is down (until its replica takes over) every node reports `cluster_state:fail`.
 */
export async function serving(client: RedisClient): Promise<boolean> {
  try {
    if (client instanceof Cluster) return /^cluster_state:ok\r?$/m.test(await client.cluster('INFO'));
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  }
}
