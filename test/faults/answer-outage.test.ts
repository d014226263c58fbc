// Issue 15.2: a person acts while Redis is down (SIGKILL) or hung (SIGSTOP). The bot runs in-process against
// the Slack stand-in and a private redis-server with AOF. Each ack must come inside Slack's 3 s with the plain
// "not saved" reply (a field error that keeps what was typed, or a private note under the card), nothing may
// be recorded by that act, and once Redis is back the person's next try ends the question exactly once, as the
// history checker sees it. "Inside Slack's 3 s" is judged by the bot's own receiver, not by a stopwatch in this
// (shared, loaded) process: Bolt's HTTPReceiver answers a request nobody acked within 3001 ms with a 404 of its
// own, so a 200 carrying the bot's reply is an ack that came first.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Outcome } from '../../src/relay/types.js';
import type { Delivery } from '../../src/standin/index.js';
import { captureLogs, printLogsOnFailure } from '../slack/log-capture.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { openForm, startHarness, type Harness } from '../system/harness.js';
import { History } from './support/history.js';
import { Records } from './support/records.js';
import { startPrivateRedis, type PrivateRedis } from './support/redis-server.js';

/**
 * How long Redis may take to come back and the bot to reconnect, in ms (reconnects back off to 2 s); 40 s
 * since the outbox's BullMQ connections reconnect too, slower while the Cluster and conformance tiers run.
 */
const BACK_WITHIN_MS = 40_000;
/** The holder's local backstop ends a question at most this long after its deadline (README). */
const GRACE_MS = 5_000;
const NOT_SAVED =
  'Your answer was NOT saved (a temporary problem on our side). Press Send again in a moment.';
/** The reply when a try's write reached Redis but its result came after the reply bound (Redis just back). */
const MAYBE_NOT_SAVED =
  'Your answer may not have been saved (a temporary problem on our side). Press Send again in a moment: it is saved once, or you are told it already was.';
const ANSWERED = 'This question has already been answered.';
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

afterAll(async () => {
  records.close();
  await h.close();
  await redis.stop();
});

/** Asks `userId`, opens their form, and returns the card, the form's view id and its one input's block id. */
async function askAndOpen(userId: string) {
  const card = await h.ask(userId, SCHEMA);
  const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
  const viewId = await openForm(h, userId, card);
  const view = h.standin.view(viewId)?.view as { blocks: { type: string; block_id: string }[] };
  const block = view.blocks.find((b) => b.type === 'input')?.block_id ?? '';
  return { card, id, viewId, block };
}

/** The ack came inside Slack's window: a 200 from the bot, not Bolt's own 404 at 3001 ms, and no late ack. */
function expectAckedInWindow(delivery: Delivery, linesBefore: number): void {
  expect(delivery.status).toBe(200);
  const late = logs.lines
    .slice(linesBefore)
    .filter((l) => /not acknowledged|ack came after/.test(String(l.msg)));
  expect(late).toEqual([]);
}

/**
 * The person presses Send until an attempt is acked with a plain close (Redis back and reconnected), or is told
 * the question was already answered: then by an earlier try of theirs whose write reached Redis after its reply
 * was due, which was told it MAY not have been saved (a try told it was NOT saved writes nothing).
 */
async function sendUntilSaved(userId: string, viewId: string, values: Record<string, string>): Promise<void> {
  const acks: Delivery[] = [];
  const done = (ack: Delivery | undefined) => ack?.body === '' || ack?.body.includes(ANSWERED) === true;
  await vi.waitFor(
    async () => {
      if (!done(acks.at(-1))) acks.push(await h.driver.submitView({ userId, viewId, values }));
      expect(done(acks.at(-1))).toBe(true);
    },
    { timeout: BACK_WITHIN_MS, interval: 250 },
  );
  if (acks.at(-1)?.body === '') return;
  expect(acks.map((ack) => ack.body).filter((body) => body.includes(MAYBE_NOT_SAVED))).not.toEqual([]);
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
    const linesBefore = logs.lines.length;
    const delivery = await h.driver.submitView({ userId: 'U1', viewId, values: { [block]: 'Ada' } });
    expectAckedInWindow(delivery, linesBefore);
    expect(delivery.json).toEqual({ response_action: 'errors', errors: { [block]: NOT_SAVED } });
    expect(h.standin.openViews('U1').map((v) => v.id)).toEqual([viewId]);

    await redis.restart();
    expect(await stateOf(id)).toBe('pending');
    await sendUntilSaved('U1', viewId, { [block]: 'Ada' });
    const answer = { action: 'accept', content: { name: 'Ada' } } as const;
    expect(await h.toolResult('U1')).toEqual(answer);
    await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, BACK_WITHIN_MS);
    await expectEndedOnce(id, answer);
  }, 60_000);

  it('Send with Redis hung: told within 3 s it was not saved, nothing written on resume, and Send again relays it once', async () => {
    const { card, id, viewId, block } = await askAndOpen('U2');
    redis.pause();
    const linesBefore = logs.lines.length;
    const delivery = await h.driver.submitView({ userId: 'U2', viewId, values: { [block]: 'Grace' } });
    redis.resume();
    expectAckedInWindow(delivery, linesBefore);
    expect(delivery.json).toEqual({ response_action: 'errors', errors: { [block]: NOT_SAVED } });
    // The reads queued while Redis hung are answered now; the act they belonged to must write nothing.
    expect(await stateOf(id)).toBe('pending');

    await sendUntilSaved('U2', viewId, { [block]: 'Grace' });
    const answer = { action: 'accept', content: { name: 'Grace' } } as const;
    expect(await h.toolResult('U2')).toEqual(answer);
    await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts, BACK_WITHIN_MS);
    await expectEndedOnce(id, answer);
  }, 60_000);

  it('Decline with Redis killed: told privately it was not recorded, and Decline again relays it once', async () => {
    const card = await h.ask('U3', SCHEMA);
    const id = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    await redis.kill('SIGKILL');
    const linesBefore = logs.lines.length;
    const delivery = await h.driver.clickButton({ userId: 'U3', ...card, actionId: 'elicit_decline' });
    expectAckedInWindow(delivery, linesBefore);
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
