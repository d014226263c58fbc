// Drops a command connection on which Redis went silent while commands wait: a partition, where the socket died
// without a FIN and the OS reports nothing. This replaces ioredis's commandTimeout and socketTimeout, whose
// timers judge by the clock alone: when this process was busy for longer than the bound (a burst of questions
// under CPU load), they fired before the replies that had arrived meanwhile were read, failed every command in
// flight with a timeout and dropped a healthy connection, where a pipeline cut by the drop is
// aborted rather than resent (ioredis abortIncompletePipelines). So a silence is judged only once this process
// has read what waits on its sockets: the verdict runs in setImmediate, after the event loop's poll phase.
import { Cluster, type Redis } from 'ioredis';
import type { RedisClient } from './topology.js';

/** Looks at waiting commands this many times per bound: a silence is noticed within 1.2× the bound. */
const CHECKS_PER_BOUND = 5;

/** Thrown into the dropped socket (reaches the client's 'error' event, hence the log). */
export class SilentRedisError extends Error {
  override name = 'SilentRedisError';
  readonly code = 'redis_silent';
}

/**
 * Watches `client` (each node of a Cluster): a connection that has commands waiting and has read nothing for
 * `silenceMs` is destroyed, so ioredis reconnects, resends what it may (maxRetriesPerRequest) and fails the rest.
 */
export function dropWhenSilent(client: RedisClient, silenceMs: number): void {
  if (client instanceof Cluster) client.on('+node', (node: Redis) => watch(node, silenceMs));
  else watch(client, silenceMs);
}

function watch(redis: Redis, silenceMs: number): void {
  // performance.now(): a wall clock stepped by NTP must not make a connection look silent.
  let heardAt = performance.now();
  let waitingSince: number | undefined;
  const heard = (): void => {
    heardAt = performance.now();
  };
  let socket: Redis['stream'] | undefined;
  redis.on('connect', () => {
    socket?.off('data', heard);
    socket = redis.stream;
    socket.on('data', heard);
    heard();
  });
  /** How long commands have waited with nothing read, ms (0 when none waits). */
  const silentFor = (): number => {
    const now = performance.now();
    if (redis.status !== 'ready' || redis.commandQueue.length === 0) {
      waitingSince = undefined;
      return 0;
    }
    waitingSince ??= now;
    return now - Math.max(heardAt, waitingSince);
  };
  const timer = setInterval(() => {
    if (silentFor() <= silenceMs) return;
    // The check may itself run late (a busy process): first read what arrived meanwhile, then judge.
    setImmediate(() => {
      if (silentFor() <= silenceMs) return;
      const error = new SilentRedisError(`no reply from Redis for ${silenceMs} ms while commands waited`);
      redis.stream.destroy(error);
    });
  }, silenceMs / CHECKS_PER_BOUND);
  timer.unref();
  redis.once('end', () => clearInterval(timer));
}
