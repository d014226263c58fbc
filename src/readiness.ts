// What /readyz reports about Redis. A hung Redis (SIGSTOP, a stuck failover) keeps its sockets open, so a PING
// would wait for the 5 s command timeout; a probe answers within a load balancer's patience instead.
//
// A Redis past its maxmemory (`noeviction`) answers PING and refuses every write with OOM: nothing can be asked or
// answered. It is shown (`"redis":"oom"`) and logged (src/slack/redis-memory-log.ts), but the replica stays ready: every replica shares the Redis,
// so failing readiness would take them all out at once and leave nobody to tell the people who press Send.
import { outOfMemory, type RedisMemory } from './redis/index.js';
import { answerWithin } from './settle.js';

/** How long /readyz waits for Redis's PONG before reporting `timeout`, in ms (load balancers probe every 1–10 s). */
export const REDIS_PROBE_TIMEOUT_MS = 500;

/**
 * `oom`: Redis answers but is past its maxmemory, so it refuses every write (ready all the same, see above);
 * `unreachable`: the PING failed (connection refused or lost); `timeout`: it got no answer in time.
 */
export type RedisReadiness = 'ok' | 'oom' | 'unreachable' | 'timeout';

/** What is asked of Redis: whether it answers (PING), and how full it is (INFO memory; undefined: unknown). */
export interface RedisProbes {
  answers(): Promise<boolean>;
  memory(): Promise<RedisMemory | undefined>;
}

/** A check's verdict, and the memory it read (undefined when INFO failed or was late). */
export interface RedisCheck {
  readiness: RedisReadiness;
  memory: RedisMemory | undefined;
}

/** Runs `ping` (true when Redis answered PONG) and reports what happened within `timeoutMs`. */
export async function probeRedis(
  ping: () => Promise<boolean>,
  timeoutMs = REDIS_PROBE_TIMEOUT_MS,
): Promise<RedisReadiness> {
  const answered = ping().then(
    (pong): RedisReadiness => (pong ? 'ok' : 'unreachable'),
    (): RedisReadiness => 'unreachable',
  );
  return answerWithin(answered, timeoutMs, 'timeout');
}

/** PING and INFO memory side by side, both within `timeoutMs`: `oom` when Redis answers but is past its limit. */
export async function checkRedis(
  redis: RedisProbes,
  timeoutMs = REDIS_PROBE_TIMEOUT_MS,
): Promise<RedisCheck> {
  const memoryRead = redis.memory().catch(() => undefined);
  const [answered, memory] = await Promise.all([
    probeRedis(() => redis.answers(), timeoutMs),
    answerWithin(memoryRead, timeoutMs, undefined),
  ]);
  const full = answered === 'ok' && memory !== undefined && outOfMemory(memory);
  return { readiness: full ? 'oom' : answered, memory };
}
