// What /readyz reports about Redis. A hung Redis (SIGSTOP, a stuck failover) keeps its sockets open, so a PING
// would wait for the 5 s command timeout; a probe answers within a load balancer's patience instead.
import { answerWithin } from './settle.js';

/** How long /readyz waits for Redis's PONG before reporting `timeout`, in ms (load balancers probe every 1–10 s). */
export const REDIS_PROBE_TIMEOUT_MS = 500;

/** `unreachable`: the PING failed (connection refused or lost); `timeout`: it got no answer in time. */
export type RedisReadiness = 'ok' | 'unreachable' | 'timeout';

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
