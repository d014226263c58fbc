// What an operator does to a Sentinel group while the bot runs: a planned failover (SENTINEL FAILOVER, as for a
// master's maintenance) with questions pending and answers being given, the old master then serving as a
// replica, and later failed over back to; all with the first sentinel of REDIS_SENTINELS down. Each run is
// checked by the fault suite's history checker: every question ends exactly once, none early, none lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisConnections, endClient, serving, type RedisClient } from '../../src/redis/index.js';
import { loadRedisConfig } from '../support/config.js';
import { recordingLogger } from '../store/helpers.js';
import { until } from '../support/until.js';
import { GRACE_MS, failover } from './support/failover.js';
import { SENTINEL_MASTER, startSentinelGroup, type SentinelTopology } from './support/sentinel-group.js';
import { cli, replicated, type Server } from './support/servers.js';

describe('planned failovers of a Sentinel group whose first sentinel is down', () => {
  let group: SentinelTopology;
  let probe: RedisClient | undefined;
  beforeAll(async () => {
    group = await startSentinelGroup();
    // The first sentinel listed is down for the whole file: the bot asks the next ones.
    await group.sentinels[0]?.kill();
    probe = await new RedisConnections(loadRedisConfig(group.env), recordingLogger()).command(
      'readiness-probe',
    );
  }, 60_000);
  afterAll(async () => {
    if (probe) await endClient(probe, false);
    await group?.stop();
  });

  /** SENTINEL FAILOVER through a live sentinel, checked by the history checker, from `from` to `to`. */
  const plannedFailover = (from: Server, to: Server) =>
    failover(group.env, {
      synced: () => replicated(from.port),
      // A sentinel refuses (NOGOODSLAVE) until it has seen the replica in sync, which it reads from the
      // replica's INFO every 10 s; asked again until it answers OK.
      kill: () =>
        until('a sentinel starts the failover', GRACE_MS, async () => {
          const live = group.sentinels.find((s) => s.alive);
          if (!live) throw new Error('no sentinel alive');
          return (await cli(live.port, 'SENTINEL', 'FAILOVER', SENTINEL_MASTER)).trim() === 'OK';
        }),
      failedOver: () =>
        until('the sentinels name the new master', GRACE_MS, async () => {
          return (await group.masterAddress()) === `127.0.0.1:${to.port}`;
        }),
    });

  /** Resolves once `server` serves as a replica of `master` with its link up. */
  const replicaOf = (server: Server, master: Server) =>
    until(`127.0.0.1:${server.port} replicates 127.0.0.1:${master.port}`, GRACE_MS, async () => {
      const info = await cli(server.port, 'INFO', 'replication');
      return (
        /role:slave/.test(info) &&
        info.includes(`master_port:${master.port}`) &&
        /master_link_status:up/.test(info)
      );
    });

  it(
    'ends every question exactly once across a planned failover, the old master back as a replica',
    { timeout: 3 * GRACE_MS },
    async () => {
      const run = await plannedFailover(group.master, group.replica);
      expect(run.problems).toEqual([]);
      await replicaOf(group.master, group.replica);
      // /readyz and elicit_relay_redis_up read this: the bot's connections found the new master.
      await until(
        'the probe serves on the new master',
        GRACE_MS,
        async () => probe !== undefined && serving(probe),
      );
    },
  );

  it(
    'ends every question exactly once when failed over back to the old master',
    { timeout: 3 * GRACE_MS },
    async () => {
      await replicaOf(group.master, group.replica);
      const run = await plannedFailover(group.replica, group.master);
      expect(run.problems).toEqual([]);
      await replicaOf(group.replica, group.master);
      await until(
        'the probe serves on the old master',
        GRACE_MS,
        async () => probe !== undefined && serving(probe),
      );
    },
  );
});
