import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisConnections, keys, type RedisClient } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { monitored, newQuestion, openStore, rawRedis, recordingLogger } from './helpers.js';

const opened: RedisClient[] = [];
afterEach(() => {
  for (const client of opened.splice(0)) client.disconnect();
});

/** A command client with a count of the writes to its socket. */
async function counted(): Promise<{ client: Redis; writes: () => number }> {
  const connections = new RedisConnections({ url: redisUrl() }, recordingLogger());
  const client = await connections.command('command-connection-test');
  opened.push(client);
  if (!(client instanceof Redis)) throw new Error('expected a single-node client');
  const write = vi.spyOn(client.stream, 'write');
  return { client, writes: () => write.mock.calls.length };
}

describe('a command connection', () => {
  // Not auto-pipelined: ioredis's Pipeline per batch cost the store more CPU than the writes it saved
  // (RedisConnections.command).
  it('writes each command as it is issued, in order, each with its own reply', async () => {
    const { client, writes } = await counted();
    const key = `${uniquePrefix()}:counter`;
    const first = client.incr(key);
    // Written in the call itself, not batched for a later tick.
    expect(writes()).toBe(1);
    const rest = Array.from({ length: 20 }, () => client.incr(key));
    expect(writes()).toBe(21);
    expect(await Promise.all([first, ...rest])).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    await client.del(key);
  });
});

/** The address (ip:port) of each connection whose CLIENT SETNAME is `names`' entry, by that name. */
async function addresses(redis: Redis, names: string[]): Promise<Map<string, string>> {
  const list = (await redis.client('LIST')) as string;
  const found = new Map<string, string>();
  for (const line of list.split('\n')) {
    const name = /\bname=(\S+)/.exec(line)?.[1] ?? '';
    if (names.includes(name)) found.set(name, /\baddr=(\S+)/.exec(line)?.[1] ?? '');
  }
  return found;
}

describe("the store's command connection", () => {
  it("carries the store's commands only: a create that opens a deadline slot adds its BullMQ job on the queues' own connection", async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'holder-a');
    const [cmdName, queuesName] = ['cmd', 'queues'].map((role) =>
      keys(prefix).connectionName(role, 'holder-a'),
    );
    const probe = rawRedis();
    const by = await addresses(probe, [cmdName ?? '', queuesName ?? '']);
    const sent = await monitored(probe, () => store.create(newQuestion()));
    // One command on the command connection, the create script (EVAL on its first run, EVALSHA after).
    const onCmd = sent.filter(({ source }) => source === by.get(cmdName ?? ''));
    expect(onCmd.map(({ args }) => args[0]?.toLowerCase().replace('evalsha', 'eval'))).toEqual(['eval']);
    expect(sent.filter(({ source }) => source === by.get(queuesName ?? ''))).not.toEqual([]);
  });
});
