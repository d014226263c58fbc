// Why the first connection failed, named by the setting to change: ioredis only reports "could not connect"
// (or never becomes ready, for a cluster with uncovered slots), so each node the setting names is asked
// directly with one plain connection, no retries, and the first thing that explains the failure is reported.
import { Redis, ReplyError, type RedisOptions } from 'ioredis';
import type { RedisNode, RedisSetting } from '../config/index.js';
import { StoreError } from './errors.js';
import { describeSetting, nodeList, replyCode } from './topology.js';

/** How long one probe waits for a node, in ms. */
const PROBE_TIMEOUT_MS = 2_000;

/** Node's certificate-verification failures (tls.TLSSocket error codes) and OpenSSL's handshake failures. */
const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|CERT_|HOSTNAME_MISMATCH)/;

type Probe = { client: Redis } | { error: unknown };

/** A StoreError naming the setting at fault; 'redis_unavailable' when nothing answers at all. */
export async function diagnose(setting: RedisSetting, cause: unknown): Promise<StoreError> {
  if (setting.topology === 'cluster') return diagnoseCluster(setting, setting.nodes, cause);
  if (setting.topology === 'sentinel') return diagnoseSentinel(setting, cause);
  // One Redis: the connection's own first error already says what went wrong.
  return explain(setting, cause, 'REDIS_URL', 'set REDIS_URL to a Redis that answers');
}

/**
 * A refusal naming REDIS_URL when its Redis has no database of the URL's index. ioredis sends that SELECT on
 * each connect, and when Redis refuses it (an index past the server's `databases`, 16 by default) it only
 * emits an error and carries on in database 0, where another deployment's keys may live; so the bot checks it
 * once before it starts. Undefined when the URL names no database or 0, when the database exists, and when
 * nothing answers (the first connection's own failure then says why).
 */
export async function refusedDatabase(setting: RedisSetting): Promise<StoreError | undefined> {
  if (setting.topology !== undefined && setting.topology !== 'single') return undefined;
  const url = new URL(setting.url);
  const db = Number(url.pathname.slice(1) || url.searchParams.get('db') || 0);
  if (db === 0) return undefined;
  // The probe selects the database itself, so the refusal comes back as the reply to this call.
  url.pathname = '';
  url.searchParams.delete('db');
  const probe = await open(setting, url.href);
  if ('error' in probe) return undefined;
  try {
    const refused: unknown = await probe.client.select(db).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (!(refused instanceof ReplyError && refused instanceof Error)) return undefined;
    return refusal(
      'REDIS_URL',
      `the Redis at ${describeSetting(setting)} has no database ${db} (${refused.message})`,
      "Use an index below its `databases` setting (16 by default), or leave the URL's path out for database 0.",
      refused,
    );
  } finally {
    probe.client.disconnect();
  }
}

async function diagnoseCluster(
  setting: RedisSetting,
  nodes: RedisNode[],
  cause: unknown,
): Promise<StoreError> {
  let firstError: unknown = cause;
  for (const node of nodes) {
    const probe = await open(setting, node);
    if ('error' in probe) {
      firstError = probe.error;
      if (isAuth(probe.error) || isTls(probe.error)) break;
      continue;
    }
    try {
      const info = await probe.client.cluster('INFO').catch((error: unknown) => error);
      if (info instanceof ReplyError) {
        return refusal(
          'REDIS_CLUSTER_NODES',
          `${node.host}:${node.port} is not a cluster node (cluster support disabled)`,
          'Set REDIS_URL for a single Redis, or list the nodes of a Redis Cluster.',
          info,
        );
      }
      if (typeof info === 'string' && !/^cluster_state:ok\r?$/m.test(info)) {
        const assigned = /^cluster_slots_assigned:(\d+)/m.exec(info)?.[1] ?? '?';
        const ok = /^cluster_slots_ok:(\d+)/m.exec(info)?.[1] ?? '?';
        return refusal(
          'REDIS_CLUSTER_NODES',
          `the cluster is down (cluster_state:fail, ${ok} of 16384 slots served, ${assigned} assigned)`,
          'Assign every slot to a running master (redis-cli --cluster fix), then start the bot again.',
        );
      }
    } finally {
      probe.client.disconnect();
    }
  }
  return explain(setting, firstError, 'REDIS_CLUSTER_NODES', 'list at least one node that answers');
}

async function diagnoseSentinel(
  setting: RedisSetting & { topology: 'sentinel' },
  cause: unknown,
): Promise<StoreError> {
  let firstError: unknown = cause;
  for (const node of setting.sentinels) {
    const sentinelAccess = {
      ...(setting.tls ? { tls: setting.tls } : {}),
      ...(setting.sentinelPassword ? { password: setting.sentinelPassword } : {}),
    };
    const sentinel = await open(sentinelAccess, node);
    if ('error' in sentinel) {
      firstError = sentinel.error;
      continue;
    }
    const reply = await sentinel.client
      .call('SENTINEL', 'get-master-addr-by-name', setting.master)
      .catch((error: unknown) => error)
      .finally(() => sentinel.client.disconnect());
    if (reply === null) {
      return refusal(
        'REDIS_SENTINEL_MASTER',
        `the sentinel at ${node.host}:${node.port} does not know a master named "${setting.master}"`,
        "Set it to the name in the sentinels' `sentinel monitor <name> ...` line.",
      );
    }
    if (!Array.isArray(reply) || typeof reply[0] !== 'string') continue;
    const master = { host: reply[0], port: Number(reply[1]) };
    const probe = await open(setting, master);
    if ('client' in probe) {
      probe.client.disconnect();
      return unavailable(setting, cause);
    }
    const where = `the master "${setting.master}" at ${master.host}:${master.port}`;
    return explain(setting, probe.error, 'REDIS_SENTINELS', `make ${where} reachable`);
  }
  return explain(
    setting,
    firstError,
    'REDIS_SENTINELS',
    `list sentinels that answer (${nodeList(setting.sentinels)})`,
  );
}

/** Turns a connection error into the refusal naming its setting; anything else means nothing answered. */
function explain(setting: RedisSetting, error: unknown, key: string, fix: string): StoreError {
  if (isAuth(error)) {
    const where =
      key === 'REDIS_URL' ? 'the user and password in REDIS_URL' : 'REDIS_USERNAME and REDIS_PASSWORD';
    return refusal(
      'REDIS_PASSWORD',
      `Redis refused the credentials (${describeSetting(setting)})`,
      `Check ${where}.`,
      error,
    );
  }
  if (isTls(error)) {
    return refusal(
      'REDIS_TLS_CA_FILE',
      `the TLS handshake with ${describeSetting(setting)} failed`,
      "Point REDIS_TLS_CA_FILE at the CA that signed the server's certificate (and check its host name).",
      error,
    );
  }
  return unavailable(setting, error, `${key}: nothing answers; ${fix}`);
}

export function unavailable(setting: RedisSetting, cause: unknown, detail?: string): StoreError {
  const what = detail ?? 'no answer';
  return new StoreError(
    'redis_unavailable',
    `Cannot reach Redis at ${describeSetting(setting)} (${what}). Start Redis there, or set REDIS_URL (or REDIS_CLUSTER_NODES, REDIS_SENTINELS) to a Redis that answers.`,
    { cause },
  );
}

function refusal(key: string, problem: string, fix: string, cause?: unknown): StoreError {
  return new StoreError('redis_refused', `${key}: ${problem}. ${fix}`, { cause });
}

function isAuth(error: unknown): boolean {
  return ['WRONGPASS', 'NOAUTH', 'NOPERM'].includes(replyCode(error));
}

function isTls(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && TLS_CODES.test(code);
}

/**
 * One plain connection to `node` (host and port, or a redis:// URL), no retries, reporting the first error it
 * emitted: ioredis rejects connect() with "Connection is closed" and emits the real cause (ECONNREFUSED,
 * WRONGPASS, a TLS code) as 'error'.
 */
async function open(
  access: Pick<RedisSetting, 'username' | 'password' | 'tls'>,
  node: RedisNode | string,
): Promise<Probe> {
  const options: RedisOptions = {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    ...(typeof node === 'string' ? {} : { host: node.host, port: node.port }),
    ...(access.username ? { username: access.username } : {}),
    ...(access.password ? { password: access.password } : {}),
    ...(access.tls ? { tls: { ...access.tls } } : {}),
  };
  // A URL's own host, credentials and TLS win over the options, as for the bot's connections (topology.ts).
  const client = typeof node === 'string' ? new Redis(node, options) : new Redis(options);
  let first: unknown;
  client.on('error', (error: unknown) => {
    first ??= error;
  });
  try {
    await client.connect();
    return { client };
  } catch (error) {
    client.disconnect();
    return { error: first ?? error };
  }
}
