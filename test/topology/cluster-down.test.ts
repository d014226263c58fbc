// A Redis Cluster that answers CLUSTERDOWN (the `{q}` slot unserved: every question key of the deployment lives
// there, as when its master is down before a replica takes over, `cluster-require-full-coverage yes`) or TRYAGAIN
// (a multi-key script while the slot migrates, some of its keys already moved). Redis refuses either before running
// the command: the bare reply is 'redis_try_again' (nothing written, the same command can succeed in a moment). The
// store's Cluster client tries both again itself (ioredis, up to 16 times) and, still refused, fails the command as
// 'redis_unavailable' ("Too many Cluster redirections": whether an earlier try ran is not said), so an answer is
// refused with its question left pending, and ends it once when given again after the slot is served.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandError } from '../../src/redis/index.js';
import { QuestionStore } from '../../src/store/index.js';
import { newQuestion, recordingLogger } from '../store/helpers.js';
import { until } from '../support/until.js';
import { redisSetting } from './support/flows.js';
import { cli, type Server } from './support/servers.js';
import { startTwoMasters } from './support/two-masters.js';

let dir = '';
let nodes: [Server, Server];
const stores: QuestionStore[] = [];
const raws: Redis[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cluster-down-'));
  nodes = await startTwoMasters(dir);
}, 40_000);

afterAll(async () => {
  for (const s of stores) await s.close();
  for (const r of raws) r.disconnect();
  await Promise.all(nodes.map((n) => n.kill()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The slot of `{q}`, and the node serving it first and the other. */
async function qSlot(): Promise<{ slot: number; owner: Server; other: Server }> {
  const [a, b] = nodes;
  const slot = Number(await cli(a.port, 'CLUSTER', 'KEYSLOT', '{q}'));
  return slot <= 8191 ? { slot, owner: a, other: b } : { slot, owner: b, other: a };
}

/** A plain (not Cluster) client of one node: Redis's own reply reaches the caller, with no ioredis retries. */
function plain(node: Server): Redis {
  const redis = new Redis({ port: node.port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
  raws.push(redis);
  return redis;
}

/** What `promise` rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('did not fail');
    },
    (error: unknown) => error,
  );
}

const TWO_KEYS = "redis.call('SET', KEYS[1], 'x'); return redis.call('SET', KEYS[2], 'x')";

describe('a Cluster refusing the {q} slot for now', () => {
  it("classifies Redis's own TRYAGAIN and CLUSTERDOWN replies as redis_try_again", async () => {
    const { slot, owner, other } = await qSlot();
    const source = plain(owner);
    const [ownerId, otherId] = await Promise.all([owner, other].map((n) => cli(n.port, 'CLUSTER', 'MYID')));
    await source.set('codes:{q}:moved', '1');
    await source.set('codes:{q}:stays', '1');
    await cli(other.port, 'CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', (ownerId ?? '').trim());
    await cli(owner.port, 'CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', (otherId ?? '').trim());
    try {
      await cli(owner.port, 'MIGRATE', '127.0.0.1', String(other.port), 'codes:{q}:moved', '0', '5000');
      const tryAgain = await rejection(source.eval(TWO_KEYS, 2, 'codes:{q}:moved', 'codes:{q}:stays'));
      expect(String(tryAgain)).toMatch(/^ReplyError: TRYAGAIN /);
      expect(commandError('finish', tryAgain)).toMatchObject({ code: 'redis_try_again' });
    } finally {
      // The migration called off: the moved key dropped, both nodes serving the slot from the owner again.
      await cli(other.port, '-c', 'DEL', 'codes:{q}:moved');
      await Promise.all([owner, other].map((n) => cli(n.port, 'CLUSTER', 'SETSLOT', String(slot), 'STABLE')));
      await source.del('codes:{q}:stays');
    }

    await cli(owner.port, 'CLUSTER', 'DELSLOTS', String(slot));
    try {
      const down = await rejection(source.set('codes:{q}:any', '1'));
      expect(String(down)).toMatch(/^ReplyError: CLUSTERDOWN /);
      expect(commandError('finish', down)).toMatchObject({ code: 'redis_try_again' });
    } finally {
      await cli(owner.port, 'CLUSTER', 'ADDSLOTS', String(slot));
      await until('the cluster is ok again', 20_000, async () =>
        /cluster_state:ok/.test(await cli(other.port, 'CLUSTER', 'INFO')),
      );
    }
  });

  it("refuses an answer while down (after the client's own retries), leaving it pending, then ends it once", async () => {
    const { slot, owner, other } = await qSlot();
    const env = { REDIS_CLUSTER_NODES: `127.0.0.1:${owner.port},127.0.0.1:${other.port}` };
    const store = await QuestionStore.open({
      ...redisSetting(env, 'cluster-down'),
      holderId: 'holder-down',
      logger: recordingLogger(),
    });
    stores.push(store);
    const answered = await store.create(newQuestion());

    await cli(owner.port, 'CLUSTER', 'DELSLOTS', String(slot));
    try {
      const refused = await rejection(store.finish(answered.id, { action: 'decline' }, 'declined', 'U1'));
      expect(refused).toMatchObject({ name: 'StoreError', code: 'redis_unavailable' });
    } finally {
      await cli(owner.port, 'CLUSTER', 'ADDSLOTS', String(slot));
    }
    expect((await store.get(answered.id))?.state).toBe('pending');
    const again = await store.finish(answered.id, { action: 'decline' }, 'declined', 'U1');
    expect(again).toMatchObject({ won: true, question: { state: 'declined' } });
    const late = await store.finish(answered.id, { action: 'decline' }, 'declined', 'U1');
    expect(late).toMatchObject({ won: false, state: 'declined' });
  });
});
