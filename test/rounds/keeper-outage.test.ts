// The round keeper against a real Redis that goes away for a moment: a renewal that fails is tried again at the
// next third of the lease, so a claim whose retry is still out is kept, not left to lapse after one error.
// Time is a hand-fired clock; each renewal's end is awaited through the store, never slept for.
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisConnections, endClient, keys, type RedisClient } from '../../src/redis/index.js';
import { ROUND_LEASE_MS, RedisRoundStore, roundKeeper, type Claim } from '../../src/rounds/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { recordingLogger } from '../store/helpers.js';
import { startProxy, type TcpProxy } from '../store/tcp-proxy.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { handClock, round, settled } from './support.js';

/** The Redis store, telling the test when each renewal has been answered (or failed). */
class WatchedStore extends RedisRoundStore {
  private waiters: (() => void)[] = [];
  renewed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  override async renew(id: string, claim: Claim): Promise<boolean> {
    try {
      return await super.renew(id, claim);
    } finally {
      for (const wake of this.waiters.splice(0)) wake();
    }
  }
}

let proxy: TcpProxy | undefined;
const clients: RedisClient[] = [];
const prefixes: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => endClient(client, true)));
  await proxy?.close();
  await Promise.all(prefixes.splice(0).map((prefix) => deleteUnder(prefix)));
});

async function client(url: string, prefix: string, name: string): Promise<RedisClient> {
  const connections = new RedisConnections({ url }, recordingLogger());
  const opened = await connections.command(keys(prefix).connectionName('rounds', name));
  clients.push(opened);
  return opened;
}

describe('round keeper during a Redis outage', () => {
  it('goes on renewing a held claim after a renewal failed, and keeps it once Redis is back', async () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    proxy = await startProxy(redisUrl());
    const viaProxy = await client(proxy.url, prefix, 'keeper');
    const store = new WatchedStore({ redis: viaProxy, keys: keys(prefix) });
    const direct = new RedisRoundStore({
      redis: await client(redisUrl(), prefix, 'look'),
      keys: keys(prefix),
    });
    const clock = handClock();
    const logger = recordingLogger();
    const keeper = roundKeeper({ store, claimant: 'r1', clock, logger });
    const id = await keeper.open(round);
    expect(await keeper.answered(id, 1, 'a', { action: 'decline' })).toBe(true);
    const release = keeper.hold(id);

    await proxy.cut();
    const failed = store.renewed();
    clock.fire();
    await failed;
    await settled();
    expect(logger.logged.map((l) => l.msg)).toEqual(['round claim not renewed; retrying']);
    // One failure leaves the claim with two thirds of its lease: the next renewal is armed.
    expect(clock.armed()).toBe(1);

    const ready = once(viaProxy, 'ready');
    await proxy.restore();
    await ready;
    const renewed = store.renewed();
    clock.fire();
    await renewed;
    await settled();
    expect(await direct.get(id)).toMatchObject({
      status: 'claimed',
      claimant: 'r1',
      leaseUntil: clock.now() + ROUND_LEASE_MS,
    });
    expect(clock.armed()).toBe(1);
    release();
    expect(clock.armed()).toBe(0);
  });
});
