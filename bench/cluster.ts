// The question lifecycle (lifecycle.ts) on a private Redis Cluster of three masters (a replica each, started
// from the machine's redis-server for this run and deleted after), beside the same lifecycle on the run's one
// Redis as the floor, measured in the same run. All question keys share the {q} slot, so a Cluster adds
// routing, not parallelism, to this flow: the cost shown is ioredis's cluster client.
import { startCluster } from '../test/topology/support/servers.js';
import { CONCURRENCY, concurrent, redisFlow } from './lifecycle.js';
import type { RedisBenchOptions } from './redis.js';
import { row, summarize, timeSequential, type Row } from './stats.js';

export async function clusterLifecycleBench(o: RedisBenchOptions): Promise<Row[]> {
  const cluster = await startCluster();
  const nodes = cluster.nodes.slice(0, 2).map((n) => ({ host: '127.0.0.1', port: n.port }));
  const single = await redisFlow({ ...o, prefix: `${o.prefix}:one` });
  const clustered = await redisFlow({ ...o, prefix: `${o.prefix}:cluster` }, { topology: 'cluster', nodes });
  try {
    const n = Math.min(o.n, 2_000);
    const oneSeq = await timeSequential(n, 200, () => single.cycle());
    const clusterSeq = await timeSequential(n, 200, () => clustered.cycle());
    const oneConc = await concurrent(single, n * 5);
    const clusterConc = await concurrent(clustered, n * 5);
    const ratio = (floor: number, value: number) =>
      `throughput ${(value / floor).toFixed(2)}× that of one Redis`;
    return [
      row('cluster', 'lifecycle on one Redis, sequential = floor', summarize(oneSeq.samples), {
        opsPerSec: oneSeq.opsPerSec,
      }),
      row('cluster', 'lifecycle on a 3-master Cluster, sequential', summarize(clusterSeq.samples), {
        opsPerSec: clusterSeq.opsPerSec,
        floorP50: summarize(oneSeq.samples).p50,
        note: ratio(oneSeq.opsPerSec, clusterSeq.opsPerSec),
      }),
      row(
        'cluster',
        `lifecycle on one Redis, ${CONCURRENCY} concurrent = floor`,
        summarize(oneConc.samples),
        {
          opsPerSec: oneConc.opsPerSec,
        },
      ),
      row(
        'cluster',
        `lifecycle on a 3-master Cluster, ${CONCURRENCY} concurrent`,
        summarize(clusterConc.samples),
        {
          opsPerSec: clusterConc.opsPerSec,
          floorP50: summarize(oneConc.samples).p50,
          note: ratio(oneConc.opsPerSec, clusterConc.opsPerSec),
        },
      ),
    ];
  } finally {
    await clustered.close();
    await single.close();
    await cluster.stop();
  }
}
