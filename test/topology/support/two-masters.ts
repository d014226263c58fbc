// A Redis Cluster of two masters and no replicas, for tests that move a slot between them by hand (SETSLOT
// MIGRATING/IMPORTING, MIGRATE): slots 0-8191 on the first, 8192-16383 on the second. No persistence; the
// caller kills the servers and deletes `dir`.
import { freePort } from '../../system/child.js';
import { until } from '../../support/until.js';
import { cli, startServer, type Server } from './servers.js';

/** How long the two nodes may take to agree that the cluster is ok, ms. */
const FORM_WITHIN_MS = 20_000;

/** One cluster node on a free port, with its cluster bus on another (not port + 10000: it may be taken). */
async function startNode(dir: string): Promise<{ node: Server; bus: number }> {
  const bus = await freePort();
  const port = await freePort();
  const args = ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`];
  args.push('--cluster-port', String(bus), '--save', '', '--appendonly', 'no');
  return { node: await startServer(dir, args, /Ready to accept connections/, port), bus };
}

/**
 * Starts the two masters in `dir` and resolves once both report cluster_state:ok; a failed start leaves no
 * redis-server behind (the caller's afterAll has no servers to kill then).
 */
export async function startTwoMasters(dir: string): Promise<[Server, Server]> {
  const first = await startNode(dir);
  const second = await startNode(dir).catch(async (error: unknown) => {
    await first.node.kill();
    throw error;
  });
  const nodes: [Server, Server] = [first.node, second.node];
  await formCluster(nodes, second.bus).catch(async (error: unknown) => {
    await Promise.all(nodes.map((n) => n.kill()));
    throw error;
  });
  return nodes;
}

/** Introduces the nodes (`busB`: the second's cluster bus), splits the slots, and waits for cluster_state:ok. */
async function formCluster([a, b]: [Server, Server], busB: number): Promise<void> {
  await cli(a.port, 'CLUSTER', 'MEET', '127.0.0.1', String(b.port), String(busB));
  await cli(a.port, 'CLUSTER', 'ADDSLOTSRANGE', '0', '8191');
  await cli(b.port, 'CLUSTER', 'ADDSLOTSRANGE', '8192', '16383');
  await until('the two-master cluster is ok', FORM_WITHIN_MS, async () => {
    const infos = await Promise.all([a, b].map((n) => cli(n.port, 'CLUSTER', 'INFO')));
    return infos.every((i) => /cluster_state:ok/.test(i));
  });
}
