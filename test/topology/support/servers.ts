// Private Redis topologies for the topology tests, started from the machine's redis-server on free ports in
// temp dirs and deleted afterwards: a Cluster of 3 masters with a replica each (a Sentinel group:
// sentinel-group.ts; a TLS Redis with a CA made at test time: tls.ts). Readiness is awaited from each
// server's log line or by polling its state with a deadline, never by sleeping a fixed time.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isRunning, killAndWait, RedisServerExited, spawnRedisServer } from '../../support/redis-process.js';
import { until } from '../../support/until.js';
import { freePort } from '../../system/child.js';

const REDIS_CLI = '/usr/bin/redis-cli';
const run = promisify(execFile);

/** A redis-server process: its port, and how to kill it like a crash (SIGKILL, no save). */
export interface Server {
  port: number;
  kill(): Promise<void>;
  readonly alive: boolean;
}

/** The durability every topology here runs with: what the README's "lost last second" note is about. */
export const DURABLE = [
  '--appendonly',
  'yes',
  '--appendfsync',
  'everysec',
  '--save',
  '',
  '--maxmemory-policy',
  'noeviction',
];

/** Starts on fresh ports tried this many times (see onFreePorts). */
const START_TRIES = 3;

/**
 * Runs `start` (which picks its own free ports) again when redis-server could not bind one: a port found free
 * may be taken before redis-server binds it, e.g. as the local port of another test's outgoing connection.
 */
export async function onFreePorts<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (!(error instanceof RedisServerExited) || !error.portTaken || attempt >= START_TRIES) throw error;
    }
  }
}

/**
 * Starts redis-server with `args` (plus a port given with `portFlag`, dir and log on stdout) and resolves once
 * its log matches `ready`. Without `port` it takes a free one, and another if that one was taken meanwhile.
 */
export async function startServer(
  dir: string,
  args: string[],
  ready: RegExp,
  port?: number,
  portFlag = '--port',
): Promise<Server> {
  const startOn = async (p: number): Promise<Server> => {
    const child = await spawnRedisServer(
      [...args, portFlag, String(p), '--bind', '127.0.0.1', '--dir', dir, '--logfile', ''],
      ready,
    );
    return {
      port: p,
      get alive() {
        return isRunning(child);
      },
      kill: () => killAndWait(child),
    };
  };
  return port === undefined ? onFreePorts(async () => startOn(await freePort())) : startOn(port);
}

/** redis-cli against one port; returns stdout. */
export type Cli = (port: number, ...args: string[]) => Promise<string>;

/** A Cli that connects with `access` (TLS and credentials: see Access.cliArgs). */
export function cliWith(access: string[]): Cli {
  return async (port, ...args) => {
    const { stdout } = await run(REDIS_CLI, [...access, '-h', '127.0.0.1', '-p', String(port), ...args]);
    return stdout;
  };
}

export const cli: Cli = cliWith([]);

/** How a secured topology is served and reached (TLS, an ACL user); plain when left out. */
export interface Access {
  /** Added to every redis-server's arguments. */
  serverArgs: string[];
  /** The flag that takes each server's port (`--tls-port` when it serves TLS only). */
  portFlag: string;
  /** Added to every redis-cli call (`--tls --cacert ...`, `--user ... --pass ...`). */
  cliArgs: string[];
  /** Added to the bot's environment (REDIS_TLS_CA_FILE, REDIS_USERNAME...). */
  env: Record<string, string>;
}

export const PLAIN: Access = { serverArgs: [], portFlag: '--port', cliArgs: [], env: {} };

/**
 * Resolves once a replica of the master at `port` has every write it acknowledged (WAIT 1); throws when none
 * confirms within 2 s, so a failover test never starts from a replica that is behind.
 */
export async function replicated(port: number): Promise<void> {
  const acks = Number(await cli(port, 'WAIT', '1', '2000'));
  if (!(acks >= 1)) throw new Error(`no replica of 127.0.0.1:${port} confirmed its writes`);
}

export interface Topology {
  /** The environment that points the bot at it (REDIS_CLUSTER_NODES, REDIS_SENTINELS...). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface ClusterTopology extends Topology {
  nodes: Server[];
  /** The port of the master now serving `slot`. */
  masterOf(slot: number): Promise<number>;
  /** Whether every node still running reports cluster_state:ok. */
  healthy(): Promise<boolean>;
}

/** How long a cluster node may be silent before it counts as failing, ms (Redis's default is 15 s). */
const NODE_TIMEOUT_MS = 1_000;

export async function startCluster(access: Access = PLAIN): Promise<ClusterTopology> {
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-cluster-'));
  const nodeCli = cliWith(access.cliArgs);
  const stopAll = async (nodes: Server[]): Promise<void> => {
    await Promise.all(nodes.map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  const nodes = await startAll(
    Array.from({ length: 6 }, () => () => onFreePorts(() => startClusterNode(dir, access))),
    stopAll,
  );
  const healthy = async (): Promise<boolean> => {
    const states = await Promise.all(
      nodes.filter((n) => n.alive).map((n) => nodeCli(n.port, 'CLUSTER', 'INFO')),
    );
    return states.every((s) => /cluster_state:ok/.test(s));
  };
  // A cluster that never formed is stopped here: its test's afterAll has no topology to stop.
  await formCluster(nodes, access, healthy).catch(async (error: unknown) => {
    await stopAll(nodes);
    throw error;
  });
  return {
    nodes,
    env: {
      REDIS_CLUSTER_NODES: nodes
        .slice(0, 2)
        .map((n) => `127.0.0.1:${n.port}`)
        .join(','),
      ...access.env,
    },
    healthy,
    masterOf: async (slot) => {
      const alive = nodes.find((n) => n.alive);
      if (!alive) throw new Error('no node alive');
      const port = findSlotOwner(await nodeCli(alive.port, 'CLUSTER', 'NODES'), slot);
      if (port === undefined) throw new Error(`no live master serves slot ${slot}`);
      return port;
    },
    stop: () => stopAll(nodes),
  };
}

/**
 * Runs every start at once and returns the servers, or, when one fails, stops those that started (`stop`) and
 * throws its error: a failed start-up leaves no redis-server behind.
 */
export async function startAll(
  starts: (() => Promise<Server>)[],
  stop: (started: Server[]) => Promise<void>,
): Promise<Server[]> {
  const settled = await Promise.allSettled(starts.map((start) => start()));
  const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure === undefined) return started;
  await stop(started);
  throw failure.reason;
}

/** Makes the six nodes one cluster (3 masters, a replica each) and waits until it is healthy and synced. */
async function formCluster(nodes: Server[], access: Access, healthy: () => Promise<boolean>): Promise<void> {
  const nodeCli = cliWith(access.cliArgs);
  const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
  const create = ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes'];
  await run(REDIS_CLI, [...access.cliArgs, ...create]);
  await until('the new cluster reports cluster_state:ok on every node', 20_000, healthy);
  // A replica that never finished its first sync will not take over its master (its data counts as too old:
  // "Disconnected from master for longer than allowed"), so a failover test must start with every link up.
  await until('every replica has synced with its master', 20_000, async () => {
    const infos = await Promise.all(nodes.map((n) => nodeCli(n.port, 'INFO', 'replication')));
    const replicas = infos.filter((i) => /role:slave/.test(i));
    return replicas.length === 3 && replicas.every((i) => /master_link_status:up/.test(i));
  });
}

/** One cluster node on a free port, with its cluster bus on another. */
async function startClusterNode(dir: string, access: Access): Promise<Server> {
  const port = await freePort();
  // The cluster bus's own free port: Redis's default (port + 10000) may belong to another test's server.
  const busPort = await freePort();
  const args = ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`];
  args.push('--cluster-port', String(busPort));
  args.push('--cluster-node-timeout', String(NODE_TIMEOUT_MS), ...DURABLE, ...access.serverArgs);
  // A master waits 5 s (Redis's default) before a replica's first full sync, hoping for more replicas.
  args.push('--repl-diskless-sync-delay', '0');
  args.push('--appendfilename', `appendonly-${port}.aof`, '--appenddirname', `aof-${port}`);
  return startServer(dir, args, /Ready to accept connections/, port, access.portFlag);
}

/** The port of the live master whose slot ranges in CLUSTER NODES output include `slot`. */
function findSlotOwner(nodesText: string, slot: number): number | undefined {
  for (const line of nodesText.trim().split('\n')) {
    const [, address = '', flags = '', , , , , , ...slots] = line.split(' ');
    if (!flags.includes('master') || flags.includes('fail')) continue;
    const serves = slots.some((range) => {
      const [from = '', to = from] = range.split('-');
      return slot >= Number(from) && slot <= Number(to);
    });
    if (serves) return Number(/:(\d+)@/.exec(address)?.[1]);
  }
  return undefined;
}
