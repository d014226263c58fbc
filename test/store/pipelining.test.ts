import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisConnections, type RedisClient } from '../../src/redis/index.js';
import { redisUrl } from '../setup/context.js';
import { recordingLogger } from './helpers.js';

const opened: RedisClient[] = [];
afterEach(() => {
  for (const client of opened.splice(0)) client.disconnect();
});

/** A command client of `connections`, with a count of the writes to its socket. */
async function counted(autoPipelining: boolean): Promise<{ client: Redis; writes: () => number }> {
  const connections = new RedisConnections({ url: redisUrl() }, recordingLogger());
  const client = await connections.command('pipelining-test', { autoPipelining });
  opened.push(client);
  if (!(client instanceof Redis)) throw new Error('expected a single-node client');
  const write = vi.spyOn(client.stream, 'write');
  return { client, writes: () => write.mock.calls.length };
}

describe('command connection', () => {
  it('with autoPipelining, sends commands made in one tick in one socket write, each with its own reply', async () => {
    const { client, writes } = await counted(true);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => client.echo(`m${i}`)));
    expect(replies).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
    expect(writes()).toBe(1);
  });

  it('without it, writes each command on its own', async () => {
    const { client, writes } = await counted(false);
    await Promise.all(Array.from({ length: 20 }, (_, i) => client.echo(`m${i}`)));
    expect(writes()).toBe(20);
  });
});
