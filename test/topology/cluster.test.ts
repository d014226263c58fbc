// The core flows on a Redis Cluster of three masters with a replica each: every key of a question, and every
// BullMQ queue, sits in one slot ({q}, {bull}), so the scripts and queues work unchanged across nodes. Then
// the master holding {q} is killed with questions pending, and its replica (in sync: startCluster waits for
// every replica's first sync, without which Redis refuses the failover) takes over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRACE_MS, failover } from './support/failover.js';
import { describeCoreFlows } from './support/flows.js';
import { cli, replicated, startCluster, type ClusterTopology } from './support/servers.js';
import { until } from '../support/until.js';

// One Cluster serves the whole file (started once, ≈ 6 redis-servers plus `--cluster create` and the first
// syncs): the core flows run first under their own prefix, then the failover, which kills a master, runs last.
describe('on a Redis Cluster (3 masters, 1 replica each)', () => {
  let cluster: ClusterTopology;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  describeCoreFlows(() => cluster.env);

  describe('failing over with questions pending', () => {
    it(
      'ends every question exactly once after the master holding {q} is killed',
      { timeout: 3 * GRACE_MS },
      async () => {
        const first = cluster.nodes[0];
        if (!first) throw new Error('no node');
        const slot = Number(await cli(first.port, 'CLUSTER', 'KEYSLOT', '{q}'));
        const master = await cluster.masterOf(slot);
        const node = cluster.nodes.find((n) => n.port === master);
        const run = await failover(cluster.env, {
          // WAIT: the replica has every write the master acknowledged (see the README on the last second).
          synced: () => replicated(master),
          kill: async () => node?.kill(),
          failedOver: () =>
            until('a replica serves {q} and the cluster is ok again', GRACE_MS, async () => {
              return (await cluster.masterOf(slot)) !== master && (await cluster.healthy());
            }),
        });
        expect(run.problems).toEqual([]);
      },
    );
  });
});
