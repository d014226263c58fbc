// Why the first connection failed, named by the setting to change: ioredis only reports "could not connect"
// (or never becomes ready, for a cluster with uncovered slots), so each node the setting names is asked
// directly with one plain connection (probe.ts: no retries, each wait bounded), and the first thing that
// explains the failure is reported.
import { ReplyError } from 'ioredis';
import type { RedisNode, RedisSetting } from '../config/index.js';
import { StoreError } from './errors.js';
import { ProbeError, ask, open } from './probe.js';
import { describeSetting, nodeList, replyCode } from './topology.js';

/** Node's certificate-verification failures (tls.TLSSocket error codes) and OpenSSL's handshake failures. */
const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|CERT_|HOSTNAME_MISMATCH)/;

const URL_FIX = 'set REDIS_URL to a Redis that answers';

/** A StoreError naming the setting at fault; 'redis_unavailable' when nothing answers at all. */
export async function diagnose(setting: RedisSetting, cause: unknown): Promise<StoreError> {
  if (setting.topology === 'cluster') return diagnoseCluster(setting, setting.nodes, cause);
  if (setting.topology === 'sentinel') return diagnoseSentinel(setting, cause);
  return diagnoseSingle(setting, cause);
}

/**
 * One Redis: the connection's own first error says what went wrong when it is a refusal; otherwise (nothing
 * answered, or the connection only ran out of time) one probe tells a Redis that takes connections and never
 * answers from one that is not there.
 */
async function diagnoseSingle(setting: RedisSetting & { url: string }, cause: unknown): Promise<StoreError> {
  if (isAuth(cause) || isTls(cause)) return explain(setting, cause, 'REDIS_URL', URL_FIX);
  const probe = await open(setting, setting.url);
  if ('client' in probe) probe.client.disconnect();
  const silent = 'error' in probe && probe.error instanceof ProbeError;
  return explain(setting, silent ? probe.error : cause, 'REDIS_URL', URL_FIX);
}

/**
 * A refusal naming REDIS_URL when its Redis has no database of the URL's index. ioredis sends that SELECT on
 * each connect, and when Redis refuses it (an index past the server's `databases`, 16 by default) it only
 * emits an error and carries on in database 0, where another deployment's keys may live; so the bot checks it
 * once before it starts; and a Redis there that takes the connection but never answers is reported at once.
 * Undefined when the URL names no database or 0, when the database exists, and when the probe fails otherwise
 * (the first connection's own failure then says why).
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
  if ('error' in probe) {
    if (!(probe.error instanceof ProbeError)) return undefined;
    return explain(setting, probe.error, 'REDIS_URL', URL_FIX);
  }
  try {
    const refused = await ask(probe, `SELECT ${db}`, probe.client.select(db));
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
      const info = await ask(probe, 'CLUSTER INFO', probe.client.cluster('INFO'));
      if (info instanceof ProbeError) {
        firstError = info;
        continue;
      }
      const refused = clusterInfoRefusal(node, info);
      if (refused !== undefined) return refused;
    } finally {
      probe.client.disconnect();
    }
  }
  return explain(setting, firstError, 'REDIS_CLUSTER_NODES', 'list at least one node that answers');
}

/** What a node's answer to CLUSTER INFO rules out: not a cluster node, or a cluster down; else undefined. */
function clusterInfoRefusal(node: RedisNode, info: unknown): StoreError | undefined {
  if (info instanceof ReplyError) {
    return refusal(
      'REDIS_CLUSTER_NODES',
      `${node.host}:${node.port} is not a cluster node (cluster support disabled)`,
      'Set REDIS_URL for a single Redis, or list the nodes of a Redis Cluster.',
      info,
    );
  }
  if (typeof info !== 'string' || /^cluster_state:ok\r?$/m.test(info)) return undefined;
  const assigned = /^cluster_slots_assigned:(\d+)/m.exec(info)?.[1] ?? '?';
  const ok = /^cluster_slots_ok:(\d+)/m.exec(info)?.[1] ?? '?';
  return refusal(
    'REDIS_CLUSTER_NODES',
    `the cluster is down (cluster_state:fail, ${ok} of 16384 slots served, ${assigned} assigned)`,
    'Assign every slot to a running master (redis-cli --cluster fix), then start the bot again.',
  );
}

/** What one sentinel said: the master's address, a refusal to report at once, or an error to keep while the next is asked. */
type SentinelAnswer = { master: RedisNode } | { refusal: StoreError } | { error: unknown };

async function diagnoseSentinel(
  setting: RedisSetting & { topology: 'sentinel' },
  cause: unknown,
): Promise<StoreError> {
  let firstError: unknown = cause;
  for (const node of setting.sentinels) {
    const answer = await askSentinel(setting, node);
    if (answer === undefined) continue;
    if ('refusal' in answer) return answer.refusal;
    if ('error' in answer) {
      firstError = answer.error;
      continue;
    }
    const { master } = answer;
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

/** Asks the sentinel at `node` for the master's address; undefined when its reply explains nothing. */
async function askSentinel(
  setting: RedisSetting & { topology: 'sentinel' },
  node: RedisNode,
): Promise<SentinelAnswer | undefined> {
  const access = {
    ...(setting.tls ? { tls: setting.tls } : {}),
    ...(setting.sentinelPassword ? { password: setting.sentinelPassword } : {}),
  };
  const sentinel = await open(access, node);
  if ('error' in sentinel) {
    if (!isAuth(sentinel.error)) return { error: sentinel.error };
    return { refusal: sentinelCredentials(node, setting.sentinelPassword !== undefined, sentinel.error) };
  }
  const reply = await ask(
    sentinel,
    'SENTINEL get-master-addr-by-name',
    sentinel.client.call('SENTINEL', 'get-master-addr-by-name', setting.master),
  ).finally(() => sentinel.client.disconnect());
  if (reply instanceof ProbeError) return { error: reply };
  if (reply instanceof ReplyError && reply instanceof Error)
    return { refusal: sentinelRefusal(node, setting, reply) };
  if (reply === null) {
    return {
      refusal: refusal(
        'REDIS_SENTINEL_MASTER',
        `the sentinel at ${node.host}:${node.port} does not know a master named "${setting.master}"`,
        "Set it to the name in the sentinels' `sentinel monitor <name> ...` line.",
      ),
    };
  }
  if (!Array.isArray(reply) || typeof reply[0] !== 'string') return undefined;
  return { master: { host: reply[0], port: Number(reply[1]) } };
}

/**
 * The one reading of a REDIS_SENTINELS entry's error reply to SENTINEL get-master-addr-by-name, by its code
 * (replyCode), never its text: an auth code is the sentinels' own credentials; any other means the address
 * answers but is no sentinel (a plain Redis or a cluster node answers `ERR unknown command 'SENTINEL'`), whose
 * words are quoted for the operator.
 */
function sentinelRefusal(
  node: RedisNode,
  setting: RedisSetting & { topology: 'sentinel' },
  reply: Error,
): StoreError {
  if (isAuth(reply)) return sentinelCredentials(node, setting.sentinelPassword !== undefined, reply);
  return refusal(
    'REDIS_SENTINELS',
    `${node.host}:${node.port} answers but is not a sentinel (it replied "${reply.message}" to SENTINEL get-master-addr-by-name)`,
    "List the sentinels' addresses (their port is 26379 by default), not the master's or a replica's.",
    reply,
  );
}

/** The sentinels refused REDIS_SENTINEL_PASSWORD, or need one and it is not set; REDIS_PASSWORD is the master's. */
function sentinelCredentials(node: RedisNode, given: boolean, cause: unknown): StoreError {
  const problem = given
    ? `the sentinel at ${node.host}:${node.port} refused it`
    : `is not set, and the sentinel at ${node.host}:${node.port} requires a password`;
  return refusal(
    'REDIS_SENTINEL_PASSWORD',
    problem,
    "Set it to the sentinels' own `requirepass` (REDIS_PASSWORD is the master's and replicas').",
    cause,
  );
}

/**
 * Turns a connection error into the refusal naming its setting; a node that took the connection and said
 * nothing is named as such; anything else means nothing answered.
 */
function explain(setting: RedisSetting, error: unknown, key: string, fix: string): StoreError {
  if (isAuth(error)) {
    const where =
      key === 'REDIS_URL'
        ? 'the user and password in REDIS_URL (REDIS_USERNAME and REDIS_PASSWORD where it has none)'
        : 'REDIS_USERNAME and REDIS_PASSWORD';
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
  if (error instanceof ProbeError) return unavailable(setting, error, `${key}: ${error.message}; ${fix}`);
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
