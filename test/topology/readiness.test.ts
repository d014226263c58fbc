// /readyz's Redis probe (serving(), which Slack's state answers /readyz and redis_up with) follows the
// topology: not serving while a Cluster reports cluster_state:fail (slots no node serves) or a Sentinel group
// has no live master, serving again once the sentinels promoted the replica. Its memory read (INFO memory, for
// /readyz's "oom") asks every Cluster master.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RedisConnections,
  endClient,
  memoryOf,
  outOfMemory,
  serving,
  type RedisClient,
} from '../../src/redis/index.js';
import { loadRedisConfig } from '../support/config.js';
import { GRACE_MS } from './support/failover.js';
import { startSentinelGroup, type SentinelTopology } from './support/sentinel-group.js';
import { cli, startCluster, type ClusterTopology } from './support/servers.js';
import { until } from '../support/until.js';

async function probeOf(env: Record<string, string>): Promise<RedisClient> {
  return new RedisConnections(loadRedisConfig(env)).command('readiness-probe');
}

describe('readiness on a failing-over topology', () => {
  let cluster: ClusterTopology;
  let group: SentinelTopology;
  const clients: RedisClient[] = [];
  beforeAll(async () => {
    // Both start at once; when one fails, the one that started is kept for afterAll to stop.
    const [clusterStart, groupStart] = await Promise.allSettled([startCluster(), startSentinelGroup()]);
    if (clusterStart.status === 'fulfilled') cluster = clusterStart.value;
    if (groupStart.status === 'fulfilled') group = groupStart.value;
    if (clusterStart.status === 'rejected') throw clusterStart.reason;
    if (groupStart.status === 'rejected') throw groupStart.reason;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => endClient(c, false)));
    await Promise.all([cluster?.stop(), group?.stop()]);
  });

  it("reads a Cluster's memory from the master nearest its maxmemory, so one past it shows as out of memory", async () => {
    const client = await probeOf(cluster.env);
    clients.push(client);
    expect(await memoryOf(client)).toMatchObject({ maxBytes: 0 });
    const master = await cluster.masterOf(0);
    const used = Number(/^used_memory:(\d+)\r?$/m.exec(await cli(master, 'INFO', 'memory'))?.[1]);
    // A limit below what the master already uses (noeviction): it refuses writes to its slots from now on.
    await cli(master, 'CONFIG', 'SET', 'maxmemory', String(Math.floor(used / 2)));
    try {
      const memory = await memoryOf(client);
      expect(memory?.maxBytes).toBe(Math.floor(used / 2));
      expect(memory && outOfMemory(memory)).toBe(true);
    } finally {
      await cli(master, 'CONFIG', 'SET', 'maxmemory', '0');
    }
  });

  it('is not ready while a Cluster has slots no node serves', { timeout: 3 * GRACE_MS }, async () => {
    const client = await probeOf(cluster.env);
    clients.push(client);
    expect(await serving(client)).toBe(true);
    // A master and its replica both gone: nothing can take over slot 0, so the cluster stays down.
    const master = await cluster.masterOf(0);
    const nodes = await cli(master, 'CLUSTER', 'NODES');
    const id =
      nodes
        .split('\n')
        .find((line) => line.includes('myself'))
        ?.split(' ')[0] ?? '';
    const doomed = nodes
      .split('\n')
      .filter((line) => line.includes('myself') || line.split(' ')[3] === id)
      .map((line) => Number(/:(\d+)@/.exec(line)?.[1]));
    expect(doomed).toHaveLength(2);
    await Promise.all(cluster.nodes.filter((n) => doomed.includes(n.port)).map((n) => n.kill()));
    await until('the probe reports the cluster down', GRACE_MS, async () => !(await serving(client)));
  });

  it(
    'is not ready while the Sentinel master is down, and ready once the replica was promoted',
    { timeout: 3 * GRACE_MS },
    async () => {
      const client = await probeOf(group.env);
      clients.push(client);
      expect(await serving(client)).toBe(true);
      await group.master.kill();
      await until('the probe reports no master', GRACE_MS, async () => !(await serving(client)));
      await until('the probe reports a master again', GRACE_MS, () => serving(client));
      // The probe may have learnt the new master from another sentinel than the one masterAddress() asks, which
      // then hears of the failover a moment later (sentinels spread the new configuration by hello messages).
      const promoted = `127.0.0.1:${group.replica.port}`;
      await until('the sentinels name the replica as master', GRACE_MS, async () => {
        return (await group.masterAddress()) === promoted;
      });
      expect(await group.masterAddress()).toBe(promoted);
    },
  );
});
