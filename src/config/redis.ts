// Where Redis is and how to reach it (PRODUCT.md "Redis topology"): one Redis (REDIS_URL), a Redis Cluster
// (REDIS_CLUSTER_NODES) or a Sentinel group (REDIS_SENTINELS + REDIS_SENTINEL_MASTER), each with optional TLS
// and credentials. Parsed once into RedisTopology & RedisAccess; src/redis builds every connection from it.
import { ConfigError } from './error.js';

type Env = Record<string, string | undefined>;

export interface RedisNode {
  host: string;
  port: number;
}

/** The three topologies; `topology` may be left out for one Redis, so `{ url }` alone describes it. */
export type RedisTopology =
  | { topology?: 'single'; url: string }
  | { topology: 'cluster'; nodes: RedisNode[] }
  | { topology: 'sentinel'; sentinels: RedisNode[]; master: string };

export interface RedisAccess {
  /** REDIS_USERNAME / REDIS_PASSWORD (an ACL user); for one Redis the URL's own credentials win. */
  username?: string;
  password?: string;
  /** REDIS_SENTINEL_PASSWORD: the sentinels' own `requirepass`, when they have one. */
  sentinelPassword?: string;
  /** Present: connect with TLS (rediss://, or REDIS_TLS=true); `ca` is REDIS_TLS_CA_FILE's PEM text. */
  tls?: { ca?: string };
}

/** Every connection's description: the topology and how to authenticate. */
export type RedisSetting = RedisTopology & RedisAccess;

export type RedisConfig = RedisSetting & {
  prefix: string;
  /** How long finished questions are kept, in seconds (ELICIT_RELAY_RETENTION; default 86400). */
  retentionSec?: number;
};

const DEFAULT_URL = 'redis://127.0.0.1:6379';

export function readRedisSetting(env: Env, readFile: (path: string) => string | undefined): RedisSetting {
  const topology = readTopology(env);
  const access: RedisAccess = {};
  if (env.REDIS_USERNAME) access.username = env.REDIS_USERNAME;
  if (env.REDIS_PASSWORD) access.password = env.REDIS_PASSWORD;
  if (env.REDIS_SENTINEL_PASSWORD) access.sentinelPassword = env.REDIS_SENTINEL_PASSWORD;
  const tls = readTls(env, topology, readFile);
  return { ...topology, ...access, ...(tls ? { tls } : {}) };
}

function readTopology(env: Env): RedisTopology {
  const { REDIS_CLUSTER_NODES: nodes, REDIS_SENTINELS: sentinels, REDIS_SENTINEL_MASTER: master } = env;
  const chosen = [
    env.REDIS_URL && 'REDIS_URL',
    nodes && 'REDIS_CLUSTER_NODES',
    sentinels && 'REDIS_SENTINELS',
  ];
  const set = chosen.filter((key): key is string => typeof key === 'string');
  if (set.length > 1) {
    throw new ConfigError(
      set[1] ?? '',
      `is set together with ${set[0] ?? ''}`,
      'Describe one topology only.',
    );
  }
  if (master && !sentinels) {
    throw new ConfigError('REDIS_SENTINEL_MASTER', 'is set without REDIS_SENTINELS', 'Set both, or neither.');
  }
  if (nodes) return { topology: 'cluster', nodes: readNodes('REDIS_CLUSTER_NODES', nodes) };
  if (sentinels) {
    if (!master) {
      throw new ConfigError(
        'REDIS_SENTINEL_MASTER',
        'is not set',
        "Set it to the master's name in the sentinels' configuration (`sentinel monitor <name> ...`).",
      );
    }
    return { topology: 'sentinel', sentinels: readNodes('REDIS_SENTINELS', sentinels), master };
  }
  return { topology: 'single', url: readRedisUrl(env.REDIS_URL || DEFAULT_URL) };
}

function readNodes(key: string, value: string): RedisNode[] {
  return value.split(',').map((entry) => {
    const match = /^\s*([^\s:]+|\[[0-9a-fA-F:]+\]):(\d{1,5})\s*$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match?.[1] || port < 1 || port > 65535) {
      throw new ConfigError(key, `"${entry}" is not host:port`, 'Write comma-separated host:port pairs.');
    }
    return { host: match[1].replace(/^\[|\]$/g, ''), port };
  });
}

function readRedisUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch (cause) {
    // The cause keeps the value; the message, printed at exit, shows it without its credentials.
    throw new ConfigError(
      'REDIS_URL',
      `"${value.replace(/\/\/.*@/, '//***@')}" is not a URL`,
      'Use a redis: or rediss:// URL, e.g. redis://host:6379.',
      { cause },
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    // "host:6379" parses with "host:" as its scheme.
    const fix = value.includes('//') ? 'Use a redis: or rediss:// URL.' : `Write redis://${redact(url)}.`;
    throw new ConfigError('REDIS_URL', `"${redact(url)}" uses ${url.protocol}`, fix);
  }
  // ioredis reads a URL with no host as localhost: `redis://${REDIS_HOST}:6379` with the variable unset.
  if (url.hostname === '') {
    throw new ConfigError(
      'REDIS_URL',
      `"${redact(url)}" names no host`,
      'Write the host, e.g. redis://redis:6379, or unset REDIS_URL for redis://127.0.0.1:6379.',
    );
  }
  const db = databaseOf(url);
  if (db !== undefined && !/^\d{1,9}$/.test(db)) {
    throw new ConfigError(
      'REDIS_URL',
      `"${redact(url)}" names the database "${db}", which is not an index (0, 1, 2…)`,
      'End the URL with the database index, e.g. redis://host:6379/0, or leave the path out for database 0.',
    );
  }
  return value;
}

/**
 * The database the URL selects: its path without the "/", else a `?db=` query (ioredis reads both and sends it
 * as SELECT's argument, so "/abc" would fail every connection with a raw reply error).
 */
function databaseOf(url: URL): string | undefined {
  const path = url.pathname.slice(1);
  if (path !== '') return path;
  return url.searchParams.get('db') ?? undefined;
}

/** The URL without its password, for the message. */
function redact(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = '***';
  return copy.href;
}

/** TLS: rediss:// for one Redis, REDIS_TLS=true for Cluster and Sentinel; a CA file implies it for both. */
function readTls(
  env: Env,
  topology: RedisTopology,
  readFile: (path: string) => string | undefined,
): RedisAccess['tls'] {
  const caFile = env.REDIS_TLS_CA_FILE;
  const flag = readFlag(env.REDIS_TLS);
  const single = topology.topology === 'single' || topology.topology === undefined;
  const viaUrl = 'url' in topology && topology.url.startsWith('rediss:');
  if (single && flag !== undefined) {
    throw new ConfigError(
      'REDIS_TLS',
      'applies to Cluster and Sentinel',
      'Use a rediss:// REDIS_URL instead.',
    );
  }
  if (single && caFile && !viaUrl) {
    throw new ConfigError(
      'REDIS_TLS_CA_FILE',
      'is set but REDIS_URL is not rediss://',
      'Use a rediss:// URL.',
    );
  }
  if (!caFile) return viaUrl || flag ? {} : undefined;
  if (flag === false) {
    throw new ConfigError('REDIS_TLS_CA_FILE', 'is set while REDIS_TLS is false', 'Unset one of them.');
  }
  const ca = readFile(caFile);
  if (ca === undefined) {
    throw new ConfigError(
      'REDIS_TLS_CA_FILE',
      `no file at ${caFile}`,
      'Point it at the PEM file of your CA.',
    );
  }
  return { ca };
}

function readFlag(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ConfigError('REDIS_TLS', `"${value}" is not true or false`, 'Write true or false.');
}
