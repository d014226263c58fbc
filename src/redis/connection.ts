// Opening Redis connections: fail fast at start-up, log outages once, and check the eviction policy.
import { Redis, ReplyError, type RedisOptions } from 'ioredis';
import { StoreError, redactUrl } from './errors.js';

/** How long open() waits for Redis before giving up, in ms. */
export const CONNECT_TIMEOUT_MS = 3_000;

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
export function createClient(url: string, name: string, logger: StoreLogger, options: RedisOptions): Redis {
  // Errors before the first 'ready' are start-up failures, which connectOrFail reports as a StoreError.
  let reported = true;
  let wasReady = false;
  const redis = new Redis(url, {
    ...options,
    lazyConnect: true,
    connectionName: name,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // No retry before the first success (open() fails fast); afterwards back off up to 2 s between attempts.
    retryStrategy: (attempt) => (wasReady ? Math.min(attempt * 100, RECONNECT_MAX_DELAY_MS) : null),
  });
  redis.on('error', (err: unknown) => {
    if (reported) return;
    reported = true;
    logger.warn({ err, connection: name, url: redactUrl(url) }, 'Redis connection error; retrying');
  });
  redis.on('ready', () => {
    if (wasReady && reported) logger.info({ connection: name }, 'Redis connection restored');
    wasReady = true;
    reported = false;
  });
  return redis;
}

function unavailable(url: string, cause: unknown): StoreError {
  return new StoreError(
    'redis_unavailable',
    `Cannot reach Redis at ${redactUrl(url)}. Start Redis there, or set REDIS_URL to a Redis that answers.`,
    { cause },
  );
}

/** Connects within CONNECT_TIMEOUT_MS or rejects with StoreError 'redis_unavailable' (no endless retry). */
export async function connectOrFail(redis: Redis, url: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)),
      CONNECT_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([redis.connect(), timeout]);
  } catch (cause) {
    if (redis.status !== 'end') redis.disconnect();
    throw unavailable(url, cause);
  } finally {
    clearTimeout(timer);
  }
}

/** Wraps a failed command: error replies are 'redis_error', anything else means the connection is not usable. */
export function commandError(what: string, cause: unknown): StoreError {
  if (cause instanceof StoreError) return cause;
  if (cause instanceof ReplyError) return new StoreError('redis_error', `Redis refused ${what}`, { cause });
  return new StoreError('redis_unavailable', `Redis unavailable during ${what}`, { cause });
}

/**
 * BullMQ and the question records need `noeviction`: an evicting Redis silently drops pending questions and
 * timeout jobs. Managed Redis often forbids CONFIG; then the check is skipped (logged at info).
 */
export async function checkEvictionPolicy(redis: Redis, logger: StoreLogger, refuse: boolean): Promise<void> {
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

/**
 * Ends a client and resolves once its socket is closed. `graceful` sends QUIT after pending replies; otherwise
 * the socket is dropped at once (needed while a blocking read holds the connection).
 */
export async function endClient(redis: Redis, graceful: boolean): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'reconnecting' || redis.status === 'close') {
    // The socket is already gone, so no 'end' will follow; disconnect only cancels the pending reconnect.
    redis.disconnect();
    return;
  }
  const ended = new Promise<void>((resolve) => redis.once('end', () => resolve()));
  if (graceful && redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
  await ended;
}
