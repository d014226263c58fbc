// Redis Cluster resharding the `{q}` slot (every question key of the deployment lives there). FINISH_LUA also
// writes keys it builds from the record (the holder's inbox stream, the held and person's zsets, the schema key,
// the slot marker). While the slot is MIGRATING, a script touching a key already moved to the importing node is
// aborted by Redis, which keeps what the script wrote before: so the script touches those keys before its first
// write, and a finish is refused whole (the caller tries again) or applied whole, never half. The declared-key
// check lets the script in only when every declared key is on the source node: `{q}:rescues` exists here, as it
// does for the retention after any slot rescue.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Question } from '../../src/relay/types.js';
import { QuestionStore } from '../../src/store/index.js';
import { cli, type Server } from '../topology/support/servers.js';
import { startTwoMasters } from '../topology/support/two-masters.js';
import { redisSetting } from '../topology/support/flows.js';
import { collector, newQuestion, recordingLogger } from '../store/helpers.js';

let dir = '';
let nodes: Server[] = [];
const stores: QuestionStore[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cluster-migrating-'));
  nodes = await startTwoMasters(dir);
}, 40_000);

afterAll(async () => {
  // The holder's inbox read may be ASK-redirected here (its stream moved): see cluster-asking.test.ts.
  for (const s of stores) await s.close();
  await Promise.all(nodes.map((n) => n.kill()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a finish while the {q} slot is being migrated (Cluster resharding)', () => {
  it('either ends the question whole (inbox entry, ended stream) or not at all', async () => {
    const [a, b] = nodes as [Server, Server];
    const env = { REDIS_CLUSTER_NODES: `127.0.0.1:${a.port},127.0.0.1:${b.port}` };
    const prefix = 'migrating';
    const open = async (holderId: string) => {
      const s = await QuestionStore.open({
        ...redisSetting(env, prefix),
        holderId,
        logger: recordingLogger(),
      });
      stores.push(s);
      return s;
    };
    const holder = await open('holder-a');
    const answerer = await open('holder-b');
    const seen = collector<Question>();
    await holder.startInbox((q) => seen.push(q));

    const first = await holder.create(newQuestion());
    await answerer.finish(first.id, { action: 'decline' }, 'declined');
    await seen.next(1);
    const q = await holder.create(newQuestion());

    const slot = Number(await cli(a.port, 'CLUSTER', 'KEYSLOT', '{q}'));
    const [source, target] = slot <= 8191 ? [a, b] : [b, a];
    const cliC = (...args: string[]) => cli(source.port, '-c', ...args);
    await cliC('HSET', `${prefix}:{q}:rescues`, 'another-question', '1');
    const sourceId = (await cli(source.port, 'CLUSTER', 'MYID')).trim();
    const targetId = (await cli(target.port, 'CLUSTER', 'MYID')).trim();
    // Resharding starts, and moves the holder's inbox stream first (keys move one batch at a time).
    await cli(target.port, 'CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', sourceId);
    await cli(source.port, 'CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', targetId);
    const inbox = `${prefix}:{q}:inbox:holder-a`;
    await cli(source.port, 'MIGRATE', '127.0.0.1', String(target.port), inbox, '0', '5000');

    const outcome = { action: 'accept' as const, content: { ok: true } };
    const tried = await answerer.finish(q.id, outcome, 'answered').then(
      (r) => `won=${String(r.won)}`,
      (err: unknown) => `threw: ${String(err)}`,
    );
    const state = await cliC('HGET', `${prefix}:{q}:question:${q.id}`, 'state');
    const inDue = await cliC('ZSCORE', `${prefix}:{q}:due`, q.id);
    const retried = await answerer.finish(q.id, outcome, 'answered').then(
      (r) => `won=${String(r.won)} state=${r.won ? r.question.state : r.state}`,
      (err: unknown) => `threw: ${String(err)}`,
    );
    const observed = { tried, state: state.trim(), inDueIndex: inDue.trim() !== '', retried };
    // All-or-nothing: refused with the question still pending, or won with its end complete.
    const whole =
      (tried.startsWith('threw') && observed.state === 'pending') ||
      (tried === 'won=true' && observed.state === 'accepted' && !observed.inDueIndex);
    expect(whole, `the finish is all-or-nothing; observed ${JSON.stringify(observed)}`).toBe(true);
  }, 60_000);
});
