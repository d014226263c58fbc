// Ending a connection while Redis is down: ioredis's disconnect() of a client between reconnect attempts only
// cancels the next attempt, so its queued commands (a blocked read, BullMQ's QUIT) waited forever, and so did a
// stop awaiting them (src/redis/ending.ts).
import { Worker } from 'bullmq';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  RedisConnections,
  closeQueueOwner,
  closeQueueOwners,
  endClient,
  keys,
  type EndableClient,
  type QueueOwner,
  type RedisClient,
} from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { startProxy, type TcpProxy } from '../store/tcp-proxy.js';

/** A connection template (offline queue, retries forever) through a proxy the test cuts; both go after the test. */
async function templateThroughProxy(): Promise<{ template: RedisClient; proxy: TcpProxy }> {
  const proxy = await startProxy(redisUrl());
  const template = new RedisConnections({ url: proxy.url }).template('ending-test');
  onTestFinished(async () => {
    template.disconnect();
    await proxy.close();
  });
  return { template, proxy };
}

/** A client already ended: nothing is left to drop. */
const endedClient: EndableClient = {
  status: 'end',
  isCluster: false,
  connect: () => Promise.resolve(),
  disconnect: () => undefined,
  quit: () => Promise.resolve('OK'),
  once: () => undefined,
};

/** An owner, its connections ended, whose close settles with `closing`; `events` hears each close begun. */
function ownerClosing(name: string, closing: Promise<void>, events: string[]): QueueOwner {
  return {
    close: () => {
      events.push(`close ${name}`);
      return closing;
    },
    getBackend: () => ({ client: Promise.resolve(endedClient) }),
  };
}

/** Resolves once `client` lost its connection and waits to reconnect. */
const reconnecting = (client: RedisClient): Promise<void> =>
  new Promise((resolve) => client.once('reconnecting', () => resolve()));

describe('ending a connection while Redis is down', () => {
  it('ends a client between reconnect attempts and fails the commands queued for the reconnect', async () => {
    const { template: client, proxy } = await templateThroughProxy();
    await client.connect();
    const lost = reconnecting(client);
    await proxy.cut();
    await lost;
    const queued = client.get('ending-test:key');

    await endClient(client, true);

    await expect(queued).rejects.toThrow('Connection is closed');
    expect(client.status).toBe('end');
  });

  it('closes a BullMQ worker whose connections are reconnecting, dropping them instead of queueing QUIT', async () => {
    const { template, proxy } = await templateThroughProxy();
    const worker = new Worker('ending-test', () => Promise.resolve(), {
      connection: template,
      prefix: keys(uniquePrefix()).bullPrefix,
    });
    worker.on('error', () => undefined);
    await worker.waitUntilReady();
    const lost = reconnecting(template);
    await proxy.cut();
    await lost;

    expect(await closeQueueOwner(worker, 5_000)).toBe(true);
    expect(template.status).toBe('end');
  });
});

describe('closing the queue owners of a part', () => {
  it('closes them one after another, and names and logs each whose close never settles', async () => {
    const events: string[] = [];
    const logger = { warn: (obj: object, msg: string) => void events.push(`${msg} ${JSON.stringify(obj)}`) };
    const owners = {
      'test worker': ownerClosing('test worker', new Promise<void>(() => undefined), events),
      'test events': undefined,
      'test queue': ownerClosing('test queue', Promise.resolve(), events),
    };

    expect(await closeQueueOwners(owners, 5_000, logger)).toEqual(['test worker']);
    expect(events).toEqual([
      'close test worker',
      'gave up closing the test worker; its connections are dropped {"part":"test worker"}',
      'close test queue',
    ]);
  });
});
