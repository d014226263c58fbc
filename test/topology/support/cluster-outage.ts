// A short CLUSTERDOWN on the two-master cluster (two-masters.ts), held until BullMQ replaced a worker's blocking
// connection, as test/topology/cluster-down-timers.test.ts holds it: one slot taken off its node (with
// `cluster-require-full-coverage yes`, Redis's default, every node then refuses every command), watched through
// CLIENT LIST, then served again and awaited until both nodes report cluster_state:ok.
import { until } from '../../support/until.js';
import { cli, type Server } from './servers.js';

/** Longest a step may take on a loaded CI machine, ms: a worker's wait (≤ 2 s here) and ioredis's retries. */
export const STEP_WITHIN_MS = 15_000;

export interface Client {
  /** `<node port>/<client id>`: each node numbers its clients on its own, never reusing an id. */
  id: string;
  name: string;
  cmd: string;
}

/** Every client connected to the nodes, as CLIENT LIST tells them. */
export async function clients(nodes: Server[]): Promise<Client[]> {
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
 * Longest the outage is held waiting for BullMQ to replace the blocking connection, ms. The replacement comes
 * only when BullMQ's watchdog drops the refused read before ioredis gives up on it, which the work coming due
 * within a second makes likely but a loaded machine can reorder: the outage then ends unreplaced, and the work
 * must still be done once after it.
 */
const HOLD_MAX_MS = 8_000;

/**
 * Takes `key`'s slot off its node (then runs `hooks.whileDown`), holds the outage until every connection named `name`
 * seen before was dropped and one made since was used (by ioredis's cluster ready check, CLUSTER INFO, or the next
 * blocking read, BZPOPMIN) while the cluster was still down, or HOLD_MAX_MS, then (after `hooks.beforeServed`)
 * serves the slot again and waits
 * for cluster_state:ok on both nodes. Resolves whether the connection was replaced during the outage.
 */
export async function downUntilBlockingReplaced(
  nodes: [Server, Server],
  key: string,
  name: string | ((name: string) => boolean),
  hooks: { whileDown?: () => void; beforeServed?: () => void } = {},
): Promise<boolean> {
  const { slot, owner } = await slotOf(nodes, key);
  const isNamed = typeof name === 'string' ? (n: string) => n === name : name;
  const named = async (): Promise<Client[]> => (await clients(nodes)).filter((c) => isNamed(c.name));
  const old = new Set((await named()).map((c) => c.id));
  if (old.size === 0) throw new Error('no connection of that name');
  await cli(owner.port, 'CLUSTER', 'DELSLOTS', slot);
  hooks.whileDown?.();
  try {
    const replaced = async (): Promise<boolean> => {
      const now = await named();
      const made = now.some((c) => !old.has(c.id) && (c.cmd === 'cluster|info' || c.cmd === 'bzpopmin'));
      return made && !now.some((c) => old.has(c.id));
    };
    for (const end = Date.now() + HOLD_MAX_MS; Date.now() < end;) {
      if (await replaced()) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  } finally {
    hooks.beforeServed?.();
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
