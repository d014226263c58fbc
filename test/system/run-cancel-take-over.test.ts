// A person's `/mcp run` whose replica dies while its 2026 round waits, resumed by a survivor (a durable round taken
// over): the Cancel button of the "working…" message the dead replica posted still stops the run, now going on on
// the survivor. The run's Cancel name is kept with its round, the survivor runs under it (a mark left in Redis
// included) and updates that same message. A proxy holds the survivor's retry, so the call is still running when the
// person clicks.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCEL_RUN_ACTION, runCancelTargetOf } from '../../blocks/index.js';
import { keys } from '../../src/redis/index.js';
import { TAKE_OVER_EVERY_MS } from '../../src/rounds/index.js';
import { redisUrl } from '../setup/context.js';
import { holdRetries, type RetryHold } from '../support/hold-retries.js';
import { resultText } from '../support/slack-text.js';
import { startMrtrFixture, type HttpPeer } from '../mcp/peers.js';
import { KILLED_LEASE_MS, doomedReplica } from './child-replicas.js';
import { startHarness, type Harness } from './harness.js';
import { cardInDm, logsOnFailure } from './mrtr-harness.js';

const CANCEL = CANCEL_RUN_ACTION;

describe('cancelling a run a survivor took over', () => {
  let peer: HttpPeer;
  let hold: RetryHold;
  let h: Harness;
  const logs = logsOnFailure();
  beforeAll(async () => {
    peer = await startMrtrFixture();
    hold = await holdRetries(peer.url);
    h = await startHarness({ servers: { modern: { url: hold.url } }, replicas: 2, logger: logs.logger });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await hold.close();
    await peer.stop();
  });

  /** Declines the card asking `message` in `userId`'s DM through replica 0. */
  async function decline(userId: string, message: string): Promise<void> {
    const card = await cardInDm(h, userId, message);
    await h.drivers[0]?.clickButton({ userId, ...card, actionId: 'elicit_decline' });
  }

  /** The value of the Cancel button somewhere in `node` (a message's blocks). */
  function cancelValueIn(node: unknown): string | undefined {
    if (typeof node !== 'object' || node === null) return undefined;
    const fields = new Map<string, unknown>(Object.entries(node));
    const value = fields.get('value');
    if (fields.get('action_id') === CANCEL && typeof value === 'string') return value;
    for (const child of fields.values()) {
      const found = cancelValueIn(child);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** The run id of the Cancel button in `blocks`. */
  function runOf(blocks: unknown): string {
    const target = runCancelTargetOf(cancelValueIn(blocks));
    if (target === undefined) throw new Error('no Cancel button');
    return target.run;
  }

  /** Resolves once the replica that posted run `runId`'s message has noted where it is, for a survivor. */
  async function messageNoted(runId: string): Promise<void> {
    const redis = new Redis(redisUrl());
    try {
      while ((await redis.exists(keys(h.prefix).runMessage(runId))) === 0) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      redis.disconnect();
    }
  }

  it(
    'stops the resumed call from the dead replica’s working message, and says so on that message',
    { timeout: KILLED_LEASE_MS + TAKE_OVER_EVERY_MS + 90_000 },
    async () => {
      const userId = 'U1';
      const channel = h.standin.dmChannelOf(userId);
      const { doomed, driver } = await doomedReplica(h, { modern: { url: hold.url } });
      logs.child(doomed);
      await driver.slashCommand({ userId, command: '/mcp', text: 'run modern counted {}' });
      // The run waits for its round's answers: its working message, with Cancel, goes up meanwhile.
      const hasCancel = (blocks: unknown): boolean => JSON.stringify(blocks ?? '').includes(CANCEL);
      await h.standin.waitForCall(
        'chat.postMessage',
        (c) => c.ok && c.args.channel === channel && hasCancel(c.args.blocks),
        30_000,
      );
      const working = h.standin.messagesIn(channel).find((m) => hasCancel(m.blocks));
      if (working === undefined) throw new Error('working message not found');
      // The replica dies once its message is up and noted (it notes it just after Slack answers the post).
      await messageNoted(runOf(working.blocks));
      doomed.child.kill('SIGKILL');
      await doomed.done;

      // Answered on the survivors: one of them resumes the call, whose retry the proxy holds.
      await decline(userId, 'First?');
      await decline(userId, 'Second?');
      await hold.held;
      await h.drivers[1]?.clickButton({ userId, channel, ts: working.ts, actionId: CANCEL });
      const said = await h.standin.waitForCall(
        'chat.update',
        (c) => c.args.ts === working.ts && String(c.args.text).includes('was cancelled by'),
        15_000,
      );
      expect(String(said.args.text)).toBe(`counted on modern was cancelled by <@${userId}>.`);
      expect(JSON.stringify(said.args.blocks)).not.toContain(CANCEL);
      // No second working message: the survivor showed the run on the one the person had.
      const withCancel = h.standin.calls.filter(
        (c) => c.method === 'chat.postMessage' && c.args.channel === channel && hasCancel(c.args.blocks),
      );
      expect(withCancel).toHaveLength(1);
      const results = h.standin.messagesIn(channel).filter((m) => resultText(m.blocks).includes('counted'));
      expect(results).toEqual([]);
    },
  );
});
