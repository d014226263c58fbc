// Every Redis connection the bot opens is built here, from one RedisSetting (one Redis, a Cluster or a Sentinel
// group, each with TLS and credentials; topology.ts): command clients that fail fast, blocking readers that
// wait out outages, and the unconnected templates BullMQ duplicates for its own blocking connections. Outages
// are logged once each; a failed start names the setting at fault (diagnose.ts); the eviction policy is checked.
import { ReplyError } from 'ioredis';
import { RelayError } from '../relay/errors.js';
import { diagnose } from './diagnose.js';
import { StoreError } from './errors.js';
import { dropWhenSilent } from './silence.js';
import {
  buildClient,
  describeSetting,
  replyCode,
  type ConnectionOptions,
  type RedisClient,
  type RedisSetting,
} from './topology.js';

/** How long open() waits for Redis before giving up, in ms. */
export const CONNECT_TIMEOUT_MS = 3_000;

/**
 * Longest silence of a command connection while commands wait on it, in ms (create/get/finish/attachCard, outbox
 * adds...): then the connection is dropped (silence.ts), and its commands resent once it is back or failed.
 */
export const COMMAND_TIMEOUT_MS = 5_000;

/** Longest pause between reconnect attempts after an outage, in ms. */
const RECONNECT_MAX_DELAY_MS = 2_000;

export interface StoreLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** Without a logger, warnings still reach stderr through Node's warning channel; info is dropped. */
export const defaultLogger: StoreLogger = {
  warn: (obj, msg) => process.emitWarning(`${msg} ${JSON.stringify(obj)}`, 'QuestionStore'),
  info: () => undefined,
};

/** A lazily connecting client that logs the first error of each outage (ioredis repeats it per retry). */
function createClient(
  setting: RedisSetting,
  name: string,
  logger: StoreLogger,
  options: ConnectionOptions,
): RedisClient {
  // Errors before the first 'ready' are start-up failures, which connectOrFail reports as a StoreError.
  let reported = true;
  let wasReady = false;
  const redis = buildClient(setting, {
    ...options,
    connectionName: name,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // No retry before the first success (open() fails fast); afterwards back off up to 2 s between attempts.
    retryStrategy: (attempt) => (wasReady ? Math.min(attempt * 100, RECONNECT_MAX_DELAY_MS) : null),
  });
  redis.on('error', (err: unknown) => {
    if (reported) return;
    reported = true;
    logger.warn(
      { err, connection: name, redis: describeSetting(setting) },
      'Redis connection error; retrying',
    );
  });
  redis.on('ready', () => {
    if (wasReady && reported) logger.info({ connection: name }, 'Redis connection restored');
    wasReady = true;
    reported = false;
  });
  return redis;
}

/**
 * Builds the bot's connections, each named `name` (CLIENT SETNAME, see Keys.connectionName) so CLIENT LIST
 * shows which part of which replica holds it.
 */
export class RedisConnections {
  constructor(
    private readonly setting: RedisSetting,
    private readonly logger: StoreLogger = defaultLogger,
  ) {}

  /**
   * A connected client for ordinary commands. No offline queue and one retry: with Redis down, a call fails at
   * once (StoreError 'redis_unavailable') instead of waiting in a buffer. Each command is written as it is
   * issued: ioredis's auto-pipelining builds a Pipeline per batch (every script defined on the client copied
   * onto it, a promise per command and per batch, a setImmediate hop), which cost the store more CPU than the
   * socket writes it saved (issue #19 goal 3: 100 lifecycles at a time, 2-core machine, alternating runs on
   * 2026-12-06: 14,099-15,100/s written as issued against 10,239-11,115/s auto-pipelined while busy).
   */
  async command(name: string): Promise<RedisClient> {
    const redis = createClient(this.setting, name, this.logger, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    // A connection that died without a FIN (partition), which ioredis cannot see, is dropped once silent for
    // this long while commands wait, so ioredis reconnects (not ioredis's commandTimeout/socketTimeout, which
    // fire when this process was merely too busy to read the replies: see silence.ts).
    dropWhenSilent(redis, COMMAND_TIMEOUT_MS);
    await connectOrFail(redis, this.setting);
    return redis;
  }

  /** A connected client for a blocking read loop: its commands wait out an outage (no retry limit). */
  async blocking(name: string): Promise<RedisClient> {
    const redis = createClient(this.setting, name, this.logger, { maxRetriesPerRequest: null });
    await connectOrFail(redis, this.setting);
    return redis;
  }

  /**
   * An unconnected client that BullMQ duplicates for each blocking connection of a Worker or QueueEvents (its
   * errors reach the owner's 'error' event). `silenceMs`: no data for this long while a command waits means the
   * socket died without a FIN, so it is dropped and reconnected; leave it out when reads may block longer.
   */
  template(name: string, silenceMs?: number): RedisClient {
    const redis = buildClient(this.setting, {
      connectionName: name,
      connectTimeout: CONNECT_TIMEOUT_MS,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      ...(silenceMs === undefined ? {} : { socketTimeout: silenceMs }),
      // BullMQ reconnects a worker's blocking connection by awaiting connect() (after its watchdog drops a read
      // that Redis kept refusing). On a Cluster whose cluster_state is fail, ioredis's ready check fails, it
      // reconnects on its own and never settles that promise (ioredis Cluster.connect drops its close listener
      // once the slots are read): the worker waits on it for good and takes no job again. Without the check the
      // promise settles once the slots are read; commands refused meanwhile (CLUSTERDOWN) fail after ioredis's
      // retries and BullMQ tries again.
      clusterReadyCheck: false,
      // Used only once Redis answered at start-up, so an outage is always waited out, backing off up to 2 s.
      retryStrategy: (attempt) => Math.min(attempt * 100, RECONNECT_MAX_DELAY_MS),
    });
    // Never connects itself; the copies report their errors through the BullMQ object that owns them.
    redis.on('error', () => undefined);
    return redis;
  }
}

/**
 * Connects within CONNECT_TIMEOUT_MS or rejects with a StoreError naming the setting at fault: 'redis_refused'
 * (credentials, TLS, cluster slots, Sentinel master name) or 'redis_unavailable' (nothing answers).
 */
async function connectOrFail(redis: RedisClient, setting: RedisSetting): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)),
      CONNECT_TIMEOUT_MS,
    );
  });
  // connect() rejects with "Connection is closed"; the real cause (ECONNREFUSED, WRONGPASS, a TLS code) was
  // emitted as 'error' first.
  let first: unknown;
  const record = (error: unknown): void => {
    first ??= error;
  };
  redis.on('error', record);
  try {
    await Promise.race([redis.connect(), timeout]);
  } catch (cause) {
    if (redis.status !== 'end') redis.disconnect();
    throw await diagnose(setting, first ?? cause);
  } finally {
    clearTimeout(timer);
    redis.off('error', record);
  }
}

/** Reply codes of a command Redis refused unrun for a passing state (StoreErrorCode 'redis_try_again'). */
const PASSING_REFUSALS: ReadonlySet<string> = new Set([
  'READONLY',
  'CLUSTERDOWN',
  'TRYAGAIN',
  'MASTERDOWN',
  'LOADING',
]);

/**
 * Wraps a failed command: error replies are 'redis_error', but Redis out of memory (its OOM code: the command was
 * refused before it wrote anything) is 'redis_out_of_memory', and a refusal unrun for a passing state (READONLY,
 * CLUSTERDOWN, TRYAGAIN...: PASSING_REFUSALS) 'redis_try_again', by the reply's code (replyCode: also inside the
 * ERR Redis 6 wraps a script's error in); the connection's own failures (closed, dropped when silent, retries
 * exhausted, a socket or TLS error; a Cluster client's "Too many Cluster redirections" after its own CLUSTERDOWN
 * and TRYAGAIN retries, where an earlier try may have run) are 'redis_unavailable', which callers answer with
 * "retry shortly". The project's own typed errors, and a fault of this process met on the way (a RangeError from a
 * stack overflow while serialising a value, a TypeError), are returned as they are: as "unavailable", a client
 * would retry for ever a request that can never succeed, and the bug would be hidden.
 */
export function commandError(what: string, cause: unknown): Error {
  if (cause instanceof RelayError) return cause;
  const code = replyCode(cause);
  if (code === 'OOM') {
    return new StoreError('redis_out_of_memory', `Redis refused ${what}: out of memory`, { cause });
  }
  if (PASSING_REFUSALS.has(code)) {
    return new StoreError('redis_try_again', `Redis refused ${what} for now (${code})`, { cause });
  }
  if (cause instanceof ReplyError) return new StoreError('redis_error', `Redis refused ${what}`, { cause });
  if (isProgramFault(cause)) return cause;
  return new StoreError('redis_unavailable', `Redis unavailable during ${what}`, { cause });
}

/** JavaScript's own error classes: raised by the engine or on a bug, never by ioredis or a socket for an outage. */
const PROGRAM_FAULTS = [RangeError, TypeError, ReferenceError, SyntaxError, EvalError, URIError];

const isProgramFault = (error: unknown): error is Error =>
  PROGRAM_FAULTS.some((fault) => error instanceof fault);

/**
 * BullMQ and the question records need `noeviction`: an evicting Redis silently drops pending questions and
 * timeout jobs. Managed Redis often forbids CONFIG; then the check is skipped (logged at info).
 */
export async function checkEvictionPolicy(
  redis: RedisClient,
  logger: StoreLogger,
  refuse: boolean,
): Promise<void> {
  let policy: string | undefined;
  try {
    const reply = await redis.call('CONFIG', 'GET', 'maxmemory-policy');
    policy = Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : undefined;
  } catch (err) {
    logger.info({ err }, 'CONFIG GET maxmemory-policy not allowed; eviction policy not checked');
    return;
  }
  if (policy === undefined || policy === 'noeviction') return;
  const msg = `Redis maxmemory-policy is "${policy}"; set it to "noeviction" or pending questions may be evicted`;
  if (refuse) throw new StoreError('not_noeviction', msg);
  logger.warn({ policy }, msg);
}
