// A Cluster client ended while a command of it follows an ASK redirect. During a resharding, a key already moved
// to the importing node is answered `ASK` by the slot's owner, and ioredis sends ASKING to the importing node,
// then the command; it keeps no hold of ASKING's promise. A client ended before ASKING's reply (a store's stop
// while its inbox's blocking read is redirected: test/topology/cluster-migrating.test.ts failed now and then on
// an unhandled "Connection is closed.") rejected that promise with nobody to catch it: an unhandled rejection,
// which ends a Node process by default. The importing node is stopped here (SIGSTOP) so ASKING surely waits:
// its socket still takes what is written, and nothing answers (CLIENT PAUSE ALL would hold its UNPAUSE too).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, type Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { RedisConnections, endClient, type RedisClient } from '../../src/redis/index.js';
import { loadRedisConfig } from '../support/config.js';
import { until } from '../support/until.js';
import { cli, type Server } from './support/servers.js';
import { startTwoMasters } from './support/two-masters.js';

/** Keys of one slot (one hash tag), moved to the importing node before the tests. */
const KEYS = ['{asking}:blocking', '{asking}:duplicate'] as const;

let dir = '';
let nodes: Server[] = [];
let target: Server | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cluster-asking-'));
  nodes = await startTwoMasters(dir);
  const [a, b] = nodes as [Server, Server];
  const slot = Number(await cli(a.port, 'CLUSTER', 'KEYSLOT', KEYS[0]));
  const [source, importing] = slot <= 8191 ? [a, b] : [b, a];
  for (const key of KEYS) await cli(source.port, 'SET', key, 'v');
  const sourceId = (await cli(source.port, 'CLUSTER', 'MYID')).trim();
  const targetId = (await cli(importing.port, 'CLUSTER', 'MYID')).trim();
  await cli(importing.port, 'CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', sourceId);
  await cli(source.port, 'CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', targetId);
  await cli(source.port, 'MIGRATE', '127.0.0.1', String(importing.port), '', '0', '5000', 'KEYS', ...KEYS);
  target = importing;
}, 40_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.kill()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The connections of the cluster, as the bot builds them. */
function connections(): RedisConnections {
  const [a, b] = nodes as [Server, Server];
  const env = { REDIS_CLUSTER_NODES: `127.0.0.1:${a.port},127.0.0.1:${b.port}` };
  return new RedisConnections(loadRedisConfig(env));
}

/** The client's connection to the importing node, connected (ASKING is then written, not queued). */
async function importingNode(client: RedisClient, port: number): Promise<Redis> {
  if (!(client instanceof Cluster)) throw new Error('expected a Cluster client');
  const node = client.nodes('master').find((n) => n.options.port === port);
  if (!node) throw new Error(`no connection to the importing node ${port}`);
  await node.ping();
  return node;
}

/** Unhandled rejections from now until the test ends. */
function unhandledRejections(): unknown[] {
  const seen: unknown[] = [];
  const listener = (reason: unknown): void => void seen.push(reason);
  process.on('unhandledRejection', listener);
  onTestFinished(() => void process.off('unhandledRejection', listener));
  return seen;
}

/** Reads `key` (ASK-redirected to the stopped importing node), ends the client meanwhile; what was unhandled. */
async function endWhileAsking(
  client: RedisClient,
  key: string,
): Promise<{ read: string; unhandled: unknown[] }> {
  if (!target) throw new Error('no importing node');
  const port = target.port;
  const node = await importingNode(client, port);
  const unhandled = unhandledRejections();
  const pid = Number(/process_id:(\d+)/.exec(await cli(port, 'INFO', 'server'))?.[1]);
  process.kill(pid, 'SIGSTOP');
  onTestFinished(() => void process.kill(pid, 'SIGCONT'));
  const read = client.get(key).then(
    (value) => `answered ${String(value)}`,
    (err: unknown) => `rejected: ${String(err)}`,
  );
  // ASKING and the read itself, written to the importing node, which answers neither while stopped.
  await until('ASKING waits on the importing node', 10_000, () =>
    Promise.resolve(node.commandQueue.length >= 2),
  );
  // The connection to the stopped node ends when ioredis gives up on its FIN (disconnectTimeout), after the
  // Cluster's own 'end': its commands are rejected then.
  const nodeEnded = new Promise<void>((resolve) => node.once('end', () => resolve()));
  await endClient(client, false);
  await nodeEnded;
  // Node reports a rejection unhandled once the microtasks of the turn that rejected it have run.
  await new Promise<void>((resolve) => setImmediate(resolve));
  return { read: await read, unhandled };
}

describe('a Cluster client ended while a command waits on an ASK redirect', () => {
  it('leaves no unhandled rejection (a blocking reader, as the inbox ends it)', async () => {
    const client = await connections().blocking('asking-test');
    const { read, unhandled } = await endWhileAsking(client, KEYS[0]);
    expect(read).toMatch(/^rejected: /);
    expect(unhandled.map(String)).toEqual([]);
  });

  it("leaves no unhandled rejection on BullMQ's duplicates of a connection template", async () => {
    const template = connections().template('asking-template');
    onTestFinished(() => template.disconnect());
    if (!(template instanceof Cluster)) throw new Error('expected a Cluster template');
    const client = template.duplicate();
    await client.connect();
    const { read, unhandled } = await endWhileAsking(client, KEYS[1]);
    expect(read).toMatch(/^rejected: /);
    expect(unhandled.map(String)).toEqual([]);
  });
});
