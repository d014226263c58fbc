// Issue 15.2: a person acts while Redis is down (SIGKILL) or hung (SIGSTOP). The bot runs in-process against
// the Slack stand-in and a private redis-server with AOF. Each ack must come inside Slack's 3 s with the plain
// "not saved" reply (a field error that keeps what was typed, or a private note under the card), nothing may
// be recorded by that act, and once Redis is back the person's next try ends the question exactly once, as the
// history checker sees it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Outcome } from '../../src/relay/types.js';
import type { Delivery } from '../../src/standin/index.js';
import { captureLogs, printLogsOnFailure } from '../slack/log-capture.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { openForm, startHarness, type Harness } from '../system/harness.js';
import { History } from './support/history.js';
import { Records } from './support/records.js';
import { startPrivateRedis, type PrivateRedis } from './support/redis-server.js';

/** Slack shows its own error when an interaction is not acked within this, in ms. */
const SLACK_ACK_WINDOW_MS = 3_000;
/**
 * How long Redis may take to come back and the bot to reconnect, in ms (reconnects back off to 2 s); 40 s
 * since the outbox's BullMQ connections reconnect too, slower while the Cluster and conformance tiers run.
 */
const BACK_WITHIN_MS = 40_000;
/** The holder's local backstop ends a question at most this long after its deadline (README). */
const GRACE_MS = 5_000;
const NOT_SAVED =
  'Your answer was NOT saved (a temporary problem on our side). Press Send again in a moment.';
const NOT_RECORDED = 'That was NOT recorded (a temporary problem on our side). Please try again in a moment.';
const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
};

let redis: PrivateRedis;
let h: Harness;
let records: Records;
// The bot's debug lines, printed when a test fails: once in clean-clone CI a Decline after Redis came back was
// not relayed within 40 s (it takes under a second alone and under load); these lines are what to read then.
const logs = captureLogs('debug');
printLogsOnFailure(logs);

beforeAll(async () => {
  redis = await startPrivateRedis({ aof: true });
  h = await startHarness({ redisUrl: redis.url, logger: logs.logger });
  records = new Records(redis.url, h.prefix);
});

// 60 s (the default hook limit is 20 s): once in clean-clone CI, under the full suite's load, stopping the bot
// after these Redis kills and hangs took longer than 20 s; alone it takes about a second. Cause not yet found.
afterAll(async () => {
  records.close();
  await h.close();
  await redis.stop();
}, 60_000);

/** Asks `userId`, opens their form, and returns the card, the form's view id and its one input's block id. */
async function askAndOpen(userId: string) {
  const card = await h.ask(userId, SCHEMA);
  const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
  const viewId = await openForm(h, userId, card);
  const view = h.standin.view(viewId)?.view as { blocks: { type: string; block_id: string }[] };
  const block = view.blocks.find((b) => b.type === 'input')?.block_id ?? '';
  return { card, id, viewId, block };
}

/** Runs `act` and resolves with its delivery and how long Slack waited for the ack, in ms. */
async function timed(act: () => Promise<Delivery>): Promise<{ delivery: Delivery; ms: number }> {
  const t0 = performance.now();
  const delivery = await act();
  return { delivery, ms: performance.now() - t0 };
}

/** The person presses Send until an attempt is acked with a plain close (Redis back and reconnected). */
async function sendUntilSaved(userId: string, viewId: string, values: Record<string, string>): Promise<void> {
  await vi.waitFor(
    async () => {
      const sent = await h.driver.submitView({ userId, viewId, values });
      expect(sent.body).toBe('');
    },
    { timeout: BACK_WITHIN_MS, interval: 250 },
  );
}

/**
 * The history checker over question `id`, whose MCP request got `response`: one response, the stored end
 * agrees with it and lies between creation and the deadline plus grace, and the card was updated once.
 */
async function expectEndedOnce(id: string, response: Outcome): Promise<void> {
  const history = new History();
  await records.into(history, [id]);
  history.response(id, response);
  expect(history.check({ graceMs: GRACE_MS })).toEqual([]);
  const { card } = await records.question(id);
  const message = card ? h.standin.message(card.channel, card.ts) : undefined;
  expect(message?.updates).toBe(1);
}

/** What the stored question says now: still pending after an act that was not recorded. */
const stateOf = async (id: string): Promise<string> => (await records.question(id)).state;

describe('a person who acts while Redis is down or hung', () => {
  it('Send with Redis killed: told within 3 s it was not saved, the form keeps it, and Send again relays it once', async () => {
    const { card, id, viewId, block } = await askAndOpen('U1');
    await redis.kill('SIGKILL');
    const { delivery, ms } = await timed(() =>
      h.driver.submitView({ userId: 'U1', viewId, values: { [block]: 'Ada' } }),
    );
    expect(ms).toBeLessThan(SLACK_ACK_WINDOW_MS);
    expect(delivery.status).toBe(200);
    expect(delivery.json).toEqual({ response_action: 'errors', errors: { [block]: NOT_SAVED } });
    expect(h.standin.openViews('U1').map((v) => v.id)).toEqual([viewId]);

    await redis.restart();
    expect(await stateOf(id)).toBe('pending');
    await sendUntilSaved('U1', viewId, { [block]: 'Ada' });
    const answer = { action: 'accept', content: { name: 'Ada' } } as const;
    expect(await h.toolResult('U1')).toEqual(answer);
    await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, 10_000);
    await expectEndedOnce(id, answer);
  }, 60_000);

  it('Send with Redis hung: told within 3 s it was not saved, nothing written on resume, and Send again relays it once', async () => {
    const { card, id, viewId, block } = await askAndOpen('U2');
    redis.pause();
    const { delivery, ms } = await timed(() =>
      h.driver.submitView({ userId: 'U2', viewId, values: { [block]: 'Grace' } }),
    );
    redis.resume();
    expect(ms).toBeLessThan(SLACK_ACK_WINDOW_MS);
    expect(delivery.json).toEqual({ response_action: 'errors', errors: { [block]: NOT_SAVED } });
    // The reads queued while Redis hung are answered now; the act they belonged to must write nothing.
    expect(await stateOf(id)).toBe('pending');

    await sendUntilSaved('U2', viewId, { [block]: 'Grace' });
    const answer = { action: 'accept', content: { name: 'Grace' } } as const;
    expect(await h.toolResult('U2')).toEqual(answer);
    await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, 10_000);
    await expectEndedOnce(id, answer);
  }, 60_000);

  it('Decline with Redis killed: told privately it was not recorded, and Decline again relays it once', async () => {
    const card = await h.ask('U3', SCHEMA);
    const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    await redis.kill('SIGKILL');
    const { delivery, ms } = await timed(() =>
      h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_decline' }),
    );
    expect(ms).toBeLessThan(SLACK_ACK_WINDOW_MS);
    expect(delivery.status).toBe(200);
    const note = await h.standin.waitForCall('response_url', (c) =>
      JSON.stringify(c.args).includes(NOT_RECORDED),
    );
    expect(note.args).toMatchObject({ response_type: 'ephemeral', replace_original: false });

    await redis.restart();
    expect(await stateOf(id)).toBe('pending');
    await vi.waitFor(
      async () => {
        await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_decline' });
        await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, 2_000);
      },
      { timeout: BACK_WITHIN_MS, interval: 250 },
    );
    expect(await h.toolResult('U3')).toEqual({ action: 'decline' });
    await expectEndedOnce(id, { action: 'decline' });
  }, 60_000);
});
