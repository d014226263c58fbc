// A short CLUSTERDOWN on the two-master cluster (two-masters.ts), held until BullMQ replaced a worker's blocking
// connection, as test/topology/cluster-down-timers.test.ts holds it: one slot taken off its node (with
// `cluster-require-full-coverage yes`, Redis's default, every node then refuses every command), watched through
// CLIENT LIST, then served again and awaited until both nodes report cluster_state:ok.
import { until } from '../../support/until.js';
import { cli, type Server } from './servers.js';

/** Longest a step may take on a loaded CI machine, ms: a worker's wait (≤ 2 s here) and ioredis's retries. */
export const STEP_WITHIN_MS = 15_000;

interface Client {
  /** `<node port>/<client id>`: each node numbers its clients on its own, never reusing an id. */
  id: string;
  name: string;
  cmd: string;
}

/** Every client connected to the nodes, as CLIENT LIST tells them. */
async function clients(nodes: Server[]): Promise<Client[]> {
  const lists = await Promise.all(
    nodes.map(async (n) => ({ port: n.port, list: await cli(n.port, 'CLIENT', 'LIST') })),
  );
  return lists
    .flatMap(({ port, list }) => list.split('\n').map((line) => ({ port, line })))
    .map(({ port, line }) => ({
      id: `${port}/${/\bid=(\d+)/.exec(line)?.[1] ?? ''}`,
      name: /\bname=(\S*)/.exec(line)?.[1] ?? '',
      cmd: /\bcmd=(\S*)/.exec(line)?.[1] ?? '',
    }));
}

/** The slot of `key` and the node serving it (slots 0-8191 on the first node, the rest on the second). */
export async function slotOf(nodes: [Server, Server], key: string): Promise<{ slot: string; owner: Server }> {
  const [a, b] = nodes;
  const slot = Number(await cli(a.port, 'CLUSTER', 'KEYSLOT', key));
  return { slot: String(slot), owner: slot <= 8191 ? a : b };
}

/**
 * The name BullMQ gives a worker's blocking connection: `<bull prefix>:<queue name in base64>`, and
 * `:w:<worker name>` after it when the worker is named (create-backend.js, createBlockingConnection).
 */
export function blockingName(bullPrefix: string, queue: string, worker?: string): string {
  const base = `${bullPrefix}:${Buffer.from(queue).toString('base64')}`;
  return worker === undefined ? base : `${base}:w:${worker}`;
}

/**
 * Takes `key`'s slot off its node (then runs `whileDown`), resolves once every connection named `name` seen before was dropped and one
 * made since was used (by ioredis's cluster ready check, CLUSTER INFO, or the next blocking read, BZPOPMIN)
 * while the cluster was still down, then serves the slot again and waits for cluster_state:ok on both nodes.
 */
export async function downUntilBlockingReplaced(
  nodes: [Server, Server],
  key: string,
  name: string,
  whileDown: () => void = () => undefined,
): Promise<void> {
  const { slot, owner } = await slotOf(nodes, key);
  const named = async (): Promise<Client[]> => (await clients(nodes)).filter((c) => c.name === name);
  const old = new Set((await named()).map((c) => c.id));
  if (old.size === 0) throw new Error(`no connection named ${name}`);
  await cli(owner.port, 'CLUSTER', 'DELSLOTS', slot);
  whileDown();
  try {
    await until('the blocking connection was made again while down', STEP_WITHIN_MS, async () => {
      const now = await named();
      const made = now.some((c) => !old.has(c.id) && (c.cmd === 'cluster|info' || c.cmd === 'bzpopmin'));
      return made && !now.some((c) => old.has(c.id));
    });
  } finally {
    await cli(owner.port, 'CLUSTER', 'ADDSLOTS', slot);
    await until('the cluster is ok again', STEP_WITHIN_MS, async () => {
      const infos = await Promise.all(nodes.map((n) => cli(n.port, 'CLUSTER', 'INFO')));
      return infos.every((i) => /cluster_state:ok/.test(i));
    });
  }
}

/** `promise`'s value, or a failure naming `what` when it has not settled within STEP_WITHIN_MS. */
export async function within<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${STEP_WITHIN_MS} ms: ${what}`)), STEP_WITHIN_MS);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
