// A Redis Cluster refusing every command for a few seconds (cluster_state:fail: one slot unserved,
// `cluster-require-full-coverage yes`) while a replica's timeout worker waits for a question due in a second.
// Its blocking read is refused (CLUSTERDOWN) past BullMQ's watchdog, which drops the blocking connection and
// reconnects it while the cluster is still down: ioredis's Cluster connect() then failed its ready check (CLUSTER
// INFO answering cluster_state:fail), reconnected on its own and never settled the promise BullMQ awaits, so the
// worker took no job again, silently. Both the `{q}` slot (the questions' keys) and the `{bull}` slot (the
// queue's own keys) going down take the whole cluster down; either way the due question times out once the
// cluster is served again, and so does one asked after, each with one outcome.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionStore } from '../../src/store/index.js';
import { collector, newQuestion, recordingLogger } from '../store/helpers.js';
import { until } from '../support/until.js';
import { redisSetting } from './support/flows.js';
import { STEP_WITHIN_MS, downUntilBlockingReplaced, slotOf } from './support/cluster-outage.js';
import type { Server } from './support/servers.js';
import { startTwoMasters } from './support/two-masters.js';

let dir = '';
let nodes: [Server, Server];
const stores: QuestionStore[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cluster-down-timers-'));
  nodes = await startTwoMasters(dir);
}, 40_000);

afterAll(async () => {
  for (const s of stores) await s.close();
  await Promise.all(nodes.map((n) => n.kill()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a Cluster down across a timeout worker’s blocking read', () => {
  it.each(['{q}', '{bull}'])(
    'times questions out once the %s slot is served again',
    async (key) => {
      const prefix = `down-timers-${key.slice(1, -1)}`;
      const { owner } = await slotOf(nodes, key);
      const other = owner === nodes[0] ? nodes[1] : nodes[0];
      const env = { REDIS_CLUSTER_NODES: `127.0.0.1:${owner.port},127.0.0.1:${other.port}` };
      const store = await QuestionStore.open({
        ...redisSetting(env, prefix),
        holderId: 'h1',
        logger: recordingLogger(),
      });
      stores.push(store);
      const timedOut = collector<{ id: string; won: boolean }>();
      await store.startTimeouts(async (id) => {
        const result = await store.finish(id, { action: 'cancel' }, 'timed_out');
        timedOut.push({ id, won: result.won });
      });
      const due = await store.create(newQuestion({ timeoutMs: 1_000 }));
      // BullMQ names the worker's blocking connection `<prefix>:{bull}:<queue>:w:<worker name>`. The outage is held
      // until BullMQ dropped it (every node's) and made it again during the outage, and the new one was used (by
      // ioredis's ready check, CLUSTER INFO, or the next blocking read), or at most 8 s on a loaded machine.
      const blocking = (name: string): boolean => name.startsWith(`${prefix}:`) && name.includes(':w:');
      let duringOutage: unknown[] = [];
      await downUntilBlockingReplaced(nodes, key, blocking, {
        beforeServed: () => (duringOutage = [...timedOut.values]),
      });
      expect(duringOutage).toEqual([]);

      await until('the due question timed out', STEP_WITHIN_MS, () =>
        Promise.resolve(timedOut.values.length === 1),
      );
      const after = await store.create(newQuestion({ timeoutMs: 1_000 }));
      await until('the question asked after timed out', STEP_WITHIN_MS, () =>
        Promise.resolve(timedOut.values.length === 2),
      );
      expect(timedOut.values).toEqual([
        { id: due.id, won: true },
        { id: after.id, won: true },
      ]);
      expect((await store.get(due.id))?.state).toBe('cancelled');
    },
    60_000,
  );
});
