// The core flows on a Sentinel group (one master, one replica, three sentinels): ioredis asks the sentinels
// for the master of REDIS_SENTINEL_MASTER. Then the master is killed with questions pending and the sentinels
// promote the replica.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRACE_MS, failover } from './support/failover.js';
import { describeCoreFlows } from './support/flows.js';
import { startSentinelGroup, type SentinelTopology } from './support/sentinel-group.js';
import { replicated } from './support/servers.js';
import { until } from '../support/until.js';

// One Sentinel group serves the whole file (started once): the core flows run first under their own prefix,
// then the failover, which kills the master, runs last.
describe('on a Sentinel group (1 master, 1 replica, 3 sentinels)', () => {
  let group: SentinelTopology;
  beforeAll(async () => {
    group = await startSentinelGroup();
  }, 60_000);
  afterAll(() => group?.stop());

  describeCoreFlows(() => group.env);

  describe('failing over with questions pending', () => {
    it('ends every question exactly once after the master is killed', { timeout: 3 * GRACE_MS }, async () => {
      const promoted = `127.0.0.1:${group.replica.port}`;
      const run = await failover(group.env, {
        // WAIT: the replica has every write the master acknowledged (see the README on the last second).
        synced: () => replicated(group.master.port),
        kill: () => group.master.kill(),
        failedOver: () =>
          until('the sentinels name the replica as master', GRACE_MS, async () => {
            return (await group.masterAddress()) === promoted;
          }),
      });
      expect(run.problems).toEqual([]);
    });
  });
});
