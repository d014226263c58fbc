import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisConnections, keys, type RedisClient } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { monitored, newQuestion, openStore, rawRedis, recordingLogger } from './helpers.js';

const opened: RedisClient[] = [];
afterEach(() => {
  for (const client of opened.splice(0)) client.disconnect();
});

/** A command client of `connections`, with a count of the writes to its socket. */
async function counted(
  autoPipelining: boolean | 'when-busy',
): Promise<{ client: Redis; writes: () => number }> {
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

  it('when busy only: writes a command issued alone at once, without a pipeline', async () => {
    const { client, writes } = await counted('when-busy');
    const pipelines = vi.spyOn(client, 'pipeline');
    const reply = client.echo('alone');
    // Written in the call itself, not at the next setImmediate.
    expect(writes()).toBe(1);
    expect(await reply).toBe('alone');
    expect(pipelines).not.toHaveBeenCalled();
  });

  it('when busy only: batches the commands issued while one waits, none overtaking an earlier one', async () => {
    const { client, writes } = await counted('when-busy');
    const key = `${uniquePrefix()}:counter`;
    const first = client.incr(key);
    const rest = Array.from({ length: 20 }, () => client.incr(key));
    // The first went out alone; the other twenty wait for one batch.
    expect(writes()).toBe(1);
    expect(await Promise.all([first, ...rest])).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(writes()).toBe(2);
    await client.del(key);
  });

  it('without it, writes each command on its own', async () => {
    const { client, writes } = await counted(false);
    await Promise.all(Array.from({ length: 20 }, (_, i) => client.echo(`m${i}`)));
    expect(writes()).toBe(20);
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
