// Reminders as a server's policy sets them (slack.reminders), in the card's thread, mentioning who may answer.
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { redisUrl } from '../setup/context.js';
import { scanAll } from '../store/helpers.js';
import { startHarness, type Harness } from './harness.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean', title: 'OK' } } };

/**
 * Resolves once the harness's one reminder job (`<question id>-r0`) has been taken by a worker: processed (BullMQ
 * stamps `processedOn`) or, done, removed. The whole keyspace is scanned: other tests' keys share the Redis.
 */
async function firstReminderTaken(h: Harness, redis: Redis): Promise<void> {
  const [job] = await scanAll(redis, `${h.prefix}:{bull}:reminders:*-r0`);
  if (job === undefined) throw new Error('no reminder job');
  await vi.waitFor(
    async () => {
      const taken = (await redis.exists(job)) === 0 || (await redis.hexists(job, 'processedOn')) === 1;
      if (!taken) throw new Error('the reminder job has not run yet');
    },
    { timeout: 15_000, interval: 50 },
  );
}

describe('reminders', () => {
  it('nudges at each configured time in the card’s thread, mentioning the approvers and their group', async () => {
    const h = await startHarness({
      timeout: '20s',
      slack: {
        route: 'channel',
        channel: 'C0APPROVE',
        answerers: { requester: false, users: ['UAPP1'], usergroups: ['S0OPS'] },
        reminders: ['10%', '17s'],
      },
      workspace: { usergroups: { S0OPS: ['UOPS1'] } },
    });
    try {
      const args = JSON.stringify({ message: 'Approve?', schema: SCHEMA });
      await h.driver.slashCommand({ userId: 'U1', command: '/mcp', text: `run fixture ask ${args}` });
      const isCard = (c: RecordedCall) => JSON.stringify(c.args.blocks ?? '').includes('elicit_respond');
      await h.standin.waitForCall(
        'chat.postMessage',
        (c) => c.ok && c.args.channel === 'C0APPROVE' && isCard(c),
      );
      const card = h.standin.messagesIn('C0APPROVE').at(-1);
      const inThread = (c: RecordedCall) => c.ok && c.args.thread_ts === card?.ts;
      const first = await h.standin.waitForCall('chat.postMessage', inThread, 15_000);
      const second = await h.standin.waitForCall(
        'chat.postMessage',
        (c) => inThread(c) && c !== first,
        15_000,
      );
      for (const reminder of [first, second]) {
        expect(reminder.args.channel).toBe('C0APPROVE');
        expect(String(reminder.args.text)).toMatch(/^<!subteam\^S0OPS> <@UAPP1> Reminder: /);
      }
      await h.driver.clickButton({
        userId: 'UOPS1',
        channel: 'C0APPROVE',
        ts: card?.ts ?? '',
        actionId: 'elicit_decline',
      });
      expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
    } finally {
      await h.close();
    }
  });

  it('posts no reminder held back by a 429 once its question has ended meanwhile', async () => {
    const h = await startHarness({ timeout: '30s', slack: { reminders: ['10%'] } });
    try {
      const card = await h.ask('U1', SCHEMA);
      // The reminder's post, in the card's thread (the run's "working…" message may be posted meanwhile).
      const when = (args: Record<string, unknown>) => args.thread_ts === card.ts;
      h.standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 3, when });
      const inThread = (c: RecordedCall) => c.args.thread_ts === card.ts;
      await h.standin.waitForCall('chat.postMessage', (c) => !c.ok && inThread(c), 15_000);
      await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
      expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
      const since = h.standin.calls.length;
      await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts, 15_000);
      // Nothing to await for a post that must not come: the reminder's retry is due 3 s after its 429 (the
      // Retry-After), so 4 s after the card's update it has run, or been skipped.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const late = h.standin.calls.slice(since).filter((c) => c.method === 'chat.postMessage' && inThread(c));
      expect(late).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('sends a reminder that came due before its card was out, in the card’s thread once the card is out', async () => {
    const h = await startHarness({ timeout: '20s', slack: { reminders: ['5%'] } });
    const redis = new Redis(redisUrl());
    try {
      // The card's post waits at Slack until released; the reminder, 1 s after the question's creation, falls due.
      const held = h.standin.holdNext('chat.postMessage');
      const args = JSON.stringify({ message: 'Held card', schema: SCHEMA });
      await h.driver.slashCommand({ userId: 'U1', command: '/mcp', text: `run fixture ask ${args}` });
      await held.arrived;
      await firstReminderTaken(h, redis);
      held.release();
      const dm = h.standin.dmChannelOf('U1');
      const isCard = (c: RecordedCall) => JSON.stringify(c.args.blocks ?? '').includes('elicit_respond');
      await h.standin.waitForCall('chat.postMessage', (c) => c.ok && c.args.channel === dm && isCard(c));
      const card = h.standin.messagesIn(dm).find((m) => JSON.stringify(m.blocks).includes('Held card'));
      const reminder = await h.standin.waitForCall(
        'chat.postMessage',
        (c) => c.ok && c.args.channel === dm && c.args.thread_ts === card?.ts,
        15_000,
      );
      expect(String(reminder.args.text)).toMatch(/^Reminder: fixture is still waiting/);
      await h.driver.clickButton({
        userId: 'U1',
        channel: dm,
        ts: card?.ts ?? '',
        actionId: 'elicit_decline',
      });
      expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
      const reminders = h.standin.calls.filter(
        (c) => c.method === 'chat.postMessage' && c.args.thread_ts === card?.ts,
      );
      expect(reminders).toHaveLength(1);
    } finally {
      redis.disconnect();
      await h.close();
    }
  });

  it('posts each reminder once with two replicas running, whichever one’s worker takes its job', async () => {
    const h = await startHarness({ timeout: '20s', replicas: 2, slack: { reminders: ['10%', '50%'] } });
    try {
      const card = await h.ask('U1', SCHEMA);
      const reminders = () =>
        h.standin.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === card.ts);
      // The 50% reminder comes 8 s after the 10% one: the other replica's worker, had it also taken the first
      // reminder's job, would have posted it by then.
      await h.standin.waitForCall(
        'chat.postMessage',
        (c) => c.ok && c.args.thread_ts === card.ts && reminders().length >= 2,
        20_000,
      );
      expect(reminders().map((c) => c.ok)).toEqual([true, true]);
      await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
      expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
    } finally {
      await h.close();
    }
  });
});
