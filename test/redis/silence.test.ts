// A command connection is dropped when Redis goes silent while commands wait (a partition), never because this
// process was too busy to read the replies that came (a burst under CPU load): ioredis's own command and socket
// timeouts fired then, failing every command in flight and dropping a healthy connection (src/redis/silence.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMAND_TIMEOUT_MS, RedisConnections, type RedisClient } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { startProxy, type TcpProxy } from '../store/tcp-proxy.js';

let proxy: TcpProxy | undefined;
const clients: RedisClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  await proxy?.close();
  proxy = undefined;
});

/** Keeps this process busy (no I/O read, no timer run) for `ms`. */
function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

async function commandClient(url: string) {
  const logger = recordingLogger();
  const redis = await new RedisConnections({ url }, logger).command('silence-test');
  clients.push(redis);
  return { redis, logger };
}

describe('a command connection', () => {
  it('keeps the replies that came while this process was busy past the bound, and the connection', async () => {
    proxy = await startProxy(redisUrl());
    const { redis, logger } = await commandClient(proxy.url);
    const key = `${uniquePrefix()}:busy`;
    const held = proxy.holdReplies();
    const replies = Promise.all([redis.ping(), redis.set(key, '1', 'PX', 60_000), redis.get(key)]);
    await held.arrived;
    // The silence checks run on real time (5 per bound): past one and a half of their intervals, one has seen the
    // commands waiting with nothing read, so the silence is counted from before the busy spell.
    await sleep((COMMAND_TIMEOUT_MS / 5) * 1.5);
    // The replies reach the socket while this process is busy for longer than the bound, unread until it is not.
    // Busy in the event loop's check phase, as work between two polls is: the loop's next steps are the timers
    // (a silence check, now overdue) and only then the poll that reads the replies.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        held.release();
        busyFor(COMMAND_TIMEOUT_MS + 500);
        resolve();
      }),
    );
    expect(await replies).toEqual(['PONG', 'OK', '1']);
    expect(redis.status).toBe('ready');
    expect(logger.logged).toEqual([]);
  });

  it('is dropped when Redis goes silent while commands wait, and resends them once it is back', async () => {
    proxy = await startProxy(redisUrl());
    const { redis, logger } = await commandClient(proxy.url);
    proxy.blackhole();
    expect(await redis.ping()).toBe('PONG');
    expect(logger.logged).toMatchObject([
      { level: 'warn', msg: 'Redis connection error; retrying', obj: { err: { code: 'redis_silent' } } },
      { level: 'info', msg: 'Redis connection restored' },
    ]);
  });
});
