// A Sentinel group for the topology tests (1 master, 1 replica, 3 sentinels), from the machine's redis-server on
// free ports in a temp dir (servers.ts), deleted afterwards; one that fails to start is stopped before the error
// is thrown, so a failed start-up leaves no redis-server behind.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../../support/until.js';
import {
  DURABLE,
  PLAIN,
  cliWith,
  startAll,
  startServer,
  type Access,
  type Cli,
  type Server,
  type Topology,
} from './servers.js';

export interface SentinelTopology extends Topology {
  master: Server;
  replica: Server;
  sentinels: Server[];
  /** The address the sentinels give for the master now, e.g. `127.0.0.1:6380`. */
  masterAddress(): Promise<string>;
}

export const SENTINEL_MASTER = 'relay-master';

/** How the sentinels of a secured group are served and reached (see Access); plain when left out. */
export interface SentinelAccess {
  serverArgs: string[];
  /** Added to each sentinel's configuration (`sentinel auth-user ...`). */
  configLines: string[];
  cliArgs: string[];
  env: Record<string, string>;
}

const PLAIN_SENTINELS: SentinelAccess = { serverArgs: [], configLines: [], cliArgs: [], env: {} };

export async function startSentinelGroup(
  access: Access = PLAIN,
  sentinelAccess: SentinelAccess = PLAIN_SENTINELS,
): Promise<SentinelTopology> {
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-sentinel-'));
  const started: Server[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(started.map((s) => s.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  // A group that fails to start is stopped here, as a cluster is: its test's afterAll has no topology to stop.
  const group = await startGroup(dir, access, sentinelAccess, started).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { ...group, stop };
}

/** Starts the group's servers, each added to `started` as it comes up, and waits until the sentinels agree. */
async function startGroup(
  dir: string,
  access: Access,
  sentinelAccess: SentinelAccess,
  started: Server[],
): Promise<Omit<SentinelTopology, 'stop'>> {
  const serve = async (args: string[], ready: RegExp): Promise<Server> => {
    const server = await startServer(
      dir,
      [...DURABLE, ...access.serverArgs, ...args],
      ready,
      undefined,
      access.portFlag,
    );
    started.push(server);
    return server;
  };
  const master = await serve(['--appenddirname', 'aof-master'], /Ready to accept/);
  const replicaOf = ['--replicaof', '127.0.0.1', String(master.port)];
  const replica = await serve(
    ['--appenddirname', 'aof-replica', ...replicaOf],
    /MASTER <-> REPLICA sync: Finished with success/,
  );
  const sentinels = await startSentinels(dir, master.port, access.portFlag, sentinelAccess);
  started.push(...sentinels);
  const cli = cliWith(sentinelAccess.cliArgs);
  // Every sentinel has found the replica and the others, so a failover can reach its quorum.
  await until('every sentinel knows the replica and the two other sentinels', 20_000, async () => {
    const views = await Promise.all(sentinels.map((s) => cli(s.port, 'SENTINEL', 'master', SENTINEL_MASTER)));
    return views.every((v) => /num-slaves\n1\n/.test(v) && /num-other-sentinels\n2\n/.test(v));
  });
  const env = {
    REDIS_SENTINELS: sentinels.map((s) => `127.0.0.1:${s.port}`).join(','),
    REDIS_SENTINEL_MASTER: SENTINEL_MASTER,
    ...access.env,
    ...sentinelAccess.env,
  };
  return { master, replica, sentinels, masterAddress: () => masterAddressOf(sentinels, cli), env };
}

/** The address the first live sentinel gives for the master, e.g. `127.0.0.1:6380`. */
async function masterAddressOf(sentinels: Server[], cli: Cli): Promise<string> {
  const [first] = sentinels.filter((s) => s.alive);
  if (!first) throw new Error('no sentinel alive');
  const [host, port] = (await cli(first.port, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER))
    .trim()
    .split('\n');
  return `${host ?? ''}:${port ?? ''}`;
}

/**
 * Three sentinels watching the master at `masterPort` as SENTINEL_MASTER (quorum 2, down after 1 s); when one
 * fails to start, the others are stopped.
 */
function startSentinels(
  dir: string,
  masterPort: number,
  portFlag: string,
  access: SentinelAccess,
): Promise<Server[]> {
  const start = (i: number) => (): Promise<Server> => {
    const config = join(dir, `sentinel-${i}.conf`);
    writeFileSync(
      config,
      [
        `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${masterPort} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER} 5000`,
        `sentinel parallel-syncs ${SENTINEL_MASTER} 1`,
        ...access.configLines,
        '',
      ].join('\n'),
    );
    const args = [config, '--sentinel', ...access.serverArgs];
    return startServer(dir, args, /\+monitor master/, undefined, portFlag);
  };
  return startAll([0, 1, 2].map(start), async (started) => {
    await Promise.all(started.map((s) => s.kill()));
  });
}
