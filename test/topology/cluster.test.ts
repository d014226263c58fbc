// The core flows on a Redis Cluster of three masters with a replica each: every key of a question, and every
// BullMQ queue, sits in one slot ({q}, {bull}), so the scripts and queues work unchanged across nodes.
// Failover on Cluster is not claimed: after the master holding {q} is killed, a replica's finish keeps failing
// (see README, "Redis Cluster, Sentinel and TLS"); Sentinel's failover is tested in sentinel.test.ts.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Harness } from '../system/harness.js';
import { HOLDER_KILLED_MS, accept, decline, holderKilled, startOn, timeout } from './support/flows.js';
import { startCluster, type ClusterTopology } from './support/servers.js';

describe('on a Redis Cluster (3 masters, 1 replica each)', () => {
  let cluster: ClusterTopology;
  let h: Harness;
  beforeAll(async () => {
    cluster = await startCluster();
    h = await startOn(cluster.env);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await cluster?.stop();
  });

  it('relays an accepted form', () => accept(h, 'U1'));
  it('relays a decline and updates the card', () => decline(h, 'U2'));
  it('times a question out', () => timeout(h, 'U3'));
  it('delivers an answer handled by another replica to the holder', () => accept(h, 'U4', 1));
  it('sweeps the question of a killed holder as holder_lost', { timeout: HOLDER_KILLED_MS + 10_000 }, () =>
    holderKilled(h, cluster.env, 'U5'),
  );
});
