// The core flows on a Sentinel group (one master, one replica, three sentinels): ioredis asks the sentinels
// for the master of REDIS_SENTINEL_MASTER. Then the master is killed with questions pending and the sentinels
// promote the replica.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../system/harness.js';
import { GRACE_MS, failover } from './support/failover.js';
import { HOLDER_KILLED_MS, accept, decline, holderKilled, startOn, timeout } from './support/flows.js';
import { replicated, startSentinelGroup, until, type SentinelTopology } from './support/servers.js';

// One Sentinel group serves the whole file (started once): the core flows run first under their own prefix,
// then the failover, which kills the master, runs last.
describe('on a Sentinel group (1 master, 1 replica, 3 sentinels)', () => {
  let group: SentinelTopology;
  beforeAll(async () => {
    group = await startSentinelGroup();
  }, 60_000);
  afterAll(() => group?.stop());

  describe('the core flows', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startOn(group.env);
    }, 60_000);
    afterAll(() => h?.close());

    it('relays an accepted form', () => accept(h, 'U1'));
    it('relays a decline and updates the card', () => decline(h, 'U2'));
    it('times a question out', () => timeout(h, 'U3'));
    it('delivers an answer handled by another replica to the holder', () => accept(h, 'U4', 1));
    it('sweeps the question of a killed holder as holder_lost', { timeout: HOLDER_KILLED_MS + 10_000 }, () =>
      holderKilled(h, group.env, 'U5'),
    );
  });

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
