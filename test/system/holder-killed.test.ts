// Fault: the replica holding the MCP session is killed (SIGKILL) while a question is pending. A surviving
// replica sees its lease (KILLED_LEASE_MS, its ELICIT_RELAY_REPLICA_LEASE) lapse, ends the question exactly once
// as holder_lost and updates the card.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { SlackDriver } from '../../src/standin/index.js';
import { QuestionStore, SWEEP_EVERY_MS } from '../../src/store/index.js';
import { redisUrl } from '../setup/context.js';
import { questionIdOnCard } from '../support/slack-text.js';
import type { CliRun } from './child.js';
import { CHILD_START_MS, KILLED_LEASE_MS, childReplica } from './child-replicas.js';
import { SIGNING_SECRET, startHarness, type Harness } from './harness.js';

describe('a holder replica killed mid-question', () => {
  let survivor: Harness;
  let replica: { run: CliRun; port: number } | undefined;
  beforeAll(async () => {
    survivor = await startHarness();
    // Started here, not in the test: its start-up, slow on a loaded machine, is no part of the sweep's bound.
    replica = await childReplica(survivor);
  }, CHILD_START_MS);
  afterAll(async () => {
    replica?.run.child.kill('SIGKILL');
    await replica?.run.done;
    await survivor.close();
  });

  it(
    'is swept by a survivor: holder_lost, card updated, within the lease bound',
    { timeout: KILLED_LEASE_MS + SWEEP_EVERY_MS + 20_000 },
    async () => {
      if (!replica) throw new Error('the replica to kill did not start');
      const { run: doomed, port } = replica;
      const driver = new SlackDriver({
        eventsUrl: `http://127.0.0.1:${port}/slack/events`,
        signingSecret: SIGNING_SECRET,
        standin: survivor.standin,
      });
      const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
      await driver.slashCommand({
        userId: 'U1',
        command: '/mcp',
        text: `run fixture ask ${JSON.stringify({ message: 'Still there?', schema })}`,
      });
      const channel = survivor.standin.dmChannelOf('U1');
      const posted = await survivor.standin.waitForCall(
        'chat.postMessage',
        (c) => c.args.channel === channel && JSON.stringify(c.args.blocks).includes('elicit_respond'),
      );
      const card = survivor.standin
        .messagesIn(channel)
        .find((m) => JSON.stringify(m.blocks).includes('elicit_respond'));
      expect(posted.ok).toBe(true);
      const questionId = questionIdOnCard(card?.blocks);
      const store = await QuestionStore.open({
        url: redisUrl(),
        prefix: survivor.prefix,
        holderId: 'inspector',
      });
      // Kill it once the card is recorded with the question (Slack answered the post and the holder stored
      // the ts); nothing announces that step, so look for it.
      while (!(await store.get(questionId))?.card) await new Promise((resolve) => setTimeout(resolve, 20));
      // The replica holds its lease for its setting, not the default: what the sweep's bound below stands on.
      const holder = (await store.get(questionId))?.holder ?? '';
      const redis = new Redis(redisUrl());
      const leaseLeft = await redis
        .pttl(keys(survivor.prefix).lease(holder))
        .finally(() => redis.disconnect());
      expect(leaseLeft).toBeGreaterThan(0);
      expect(leaseLeft).toBeLessThanOrEqual(KILLED_LEASE_MS);
      doomed.child.kill('SIGKILL');
      await doomed.done;

      const updated = await survivor.standin.waitForCall(
        'chat.update',
        (c) => c.args.ts === card?.ts,
        KILLED_LEASE_MS + SWEEP_EVERY_MS + 10_000,
      );
      expect(JSON.stringify(updated.args.blocks)).toContain('connection to the server was lost');
      try {
        expect(await store.get(questionId)).toMatchObject({ state: 'cancelled', reason: 'holder_lost' });
        // A late answer is told it expired rather than being delivered to a session that no longer exists.
        expect(await store.finish(questionId, { action: 'decline' }, 'declined')).toMatchObject({
          won: false,
          state: 'cancelled',
        });
      } finally {
        await store.close();
      }
      expect(
        survivor.standin.calls.filter((c) => c.method === 'chat.update' && c.args.ts === card?.ts),
      ).toHaveLength(1);
    },
  );
});
