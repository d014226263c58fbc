// `route: dm` with answerers other than the requester: each answerer gets the card in their own DM with the bot
// (a notification where they will see it), the requester's DM keeps a card saying whom it waits for, reminders
// go to each answerer's card thread, and every card shows the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { captureLogs, printLogsOnFailure } from '../slack/log-capture.js';
import { startHarness, type Harness } from './harness.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean', title: 'OK' } } };

const hasButtons = (c: RecordedCall): boolean =>
  /elicit_respond|elicit_decline/.test(JSON.stringify(c.args.blocks ?? ''));

/** Runs `/mcp run fixture ask` as `userId` with `message`. */
async function ask(h: Harness, userId: string, message: string): Promise<void> {
  const args = JSON.stringify({ message, schema: SCHEMA });
  await h.driver.slashCommand({ userId, command: '/mcp', text: `run fixture ask ${args}` });
}

/** The card of `message` posted in `userId`'s DM with the bot, once it is out. */
async function cardIn(h: Harness, userId: string, message: string): Promise<RecordedCall & { ts: string }> {
  const channel = h.standin.dmChannelOf(userId);
  const call = await h.standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && c.args.channel === channel && JSON.stringify(c.args.blocks ?? '').includes(message),
    30_000,
  );
  const posted = h.standin.messagesIn(channel).find((m) => JSON.stringify(m.blocks).includes(message));
  return { ...call, ts: posted?.ts ?? '' };
}

/** `userId` clicks Decline on `card`. */
async function declineOn(h: Harness, userId: string, card: RecordedCall & { ts: string }): Promise<void> {
  const channel = String(card.args.channel);
  await h.driver.clickButton({ userId, channel, ts: card.ts, actionId: 'elicit_decline' });
}

describe('route dm with listed answerers and a user group, not the requester', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      timeout: '30s',
      slack: {
        route: 'dm',
        answerers: { requester: false, users: ['UAPP1'], usergroups: ['S0OPS'] },
        reminders: ['10%'],
      },
      // UAPP1 is listed and in the group: one card for them.
      workspace: { usergroups: { S0OPS: ['UOPS1', 'UAPP1'] } },
    });
  });
  afterAll(() => h.close());

  it('posts the card in each answerer’s DM and a card without buttons naming them in the requester’s', async () => {
    await ask(h, 'U1', 'Ship release 7?');
    const message = 'Ship release 7?';
    const [requester, listed, member] = await Promise.all([
      cardIn(h, 'U1', message),
      cardIn(h, 'UAPP1', message),
      cardIn(h, 'UOPS1', message),
    ]);
    expect(hasButtons(listed)).toBe(true);
    expect(hasButtons(member)).toBe(true);
    expect(hasButtons(requester)).toBe(false);
    const said = JSON.stringify(requester.args.blocks);
    expect(said).toContain('Waiting for an answer from <@UAPP1> or members of <!subteam^S0OPS>');
    const cards = h.standin.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' && JSON.stringify(c.args.blocks ?? '').includes('Ship release 7?'),
    );
    expect(cards).toHaveLength(3);

    // Reminders go to each answerer's card thread; none to the requester's card, which has nothing to answer.
    const reminderTo = (card: RecordedCall & { ts: string }) =>
      h.standin.waitForCall(
        'chat.postMessage',
        (c) => c.ok && c.args.channel === card.args.channel && c.args.thread_ts === card.ts,
        15_000,
      );
    for (const reminder of await Promise.all([reminderTo(listed), reminderTo(member)])) {
      expect(String(reminder.args.text)).toMatch(/^<!subteam\^S0OPS> <@UAPP1> Reminder: /);
    }

    await declineOn(h, 'UOPS1', member);
    expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
    const ended = await Promise.all(
      [requester, listed, member].map((card) =>
        h.standin.waitForCall(
          'chat.update',
          (c) => c.ok && c.args.channel === card.args.channel && c.args.ts === card.ts,
          15_000,
        ),
      ),
    );
    for (const update of ended) expect(JSON.stringify(update.args.blocks)).toContain('Declined by <@UOPS1>');
    // The reminder job ran before the click (both answerers' reminders are out): nothing more is coming.
    const inRequesterThread = h.standin.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.thread_ts === requester.ts,
    );
    expect(inRequesterThread).toEqual([]);
  });

  it('gives the requester who may not answer no button to click; an answerer’s Decline in their DM ends the question', async () => {
    await ask(h, 'U1', 'Roll back?');
    const card = await cardIn(h, 'U1', 'Roll back?');
    await expect(
      h.driver.clickButton({
        userId: 'U1',
        channel: String(card.args.channel),
        ts: card.ts,
        actionId: 'elicit_respond',
      }),
    ).rejects.toThrow(/no button/);
    const answerer = await cardIn(h, 'UAPP1', 'Roll back?');
    await declineOn(h, 'UAPP1', answerer);
    expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
  });
});

describe('route dm where the requester is an answerer too', () => {
  it('gives the requester a card they can answer and each other answerer their own', async () => {
    const h = await startHarness({
      slack: { route: 'dm', answerers: { requester: true, users: ['UAPP1'] } },
    });
    try {
      await ask(h, 'U1', 'Both of us?');
      const [requester, listed] = await Promise.all([
        cardIn(h, 'U1', 'Both of us?'),
        cardIn(h, 'UAPP1', 'Both of us?'),
      ]);
      expect(hasButtons(requester)).toBe(true);
      expect(hasButtons(listed)).toBe(true);
      await declineOn(h, 'U1', requester);
      expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
    } finally {
      await h.close();
    }
  });
});

describe('route dm with a user group larger than the DM bound', () => {
  const logs = captureLogs('warn');
  printLogsOnFailure(logs);

  it('posts a card to the first 20 answerers only and logs the ones it did not send to', async () => {
    const members = Array.from({ length: 25 }, (_, n) => `UM${String(n).padStart(2, '0')}`);
    const h = await startHarness({
      logger: logs.logger,
      slack: { route: 'dm', answerers: { requester: false, usergroups: ['S0ALL'] } },
      workspace: { usergroups: { S0ALL: members } },
    });
    try {
      await ask(h, 'U1', 'Everyone?');
      const line = await logs.waitFor((l) => Array.isArray(l.notSent));
      expect(line).toMatchObject({ bound: 20, notSent: members.slice(20) });
      const sent = await Promise.all(members.slice(0, 20).map((user) => cardIn(h, user, 'Everyone?')));
      expect(sent.every(hasButtons)).toBe(true);
      expect(hasButtons(await cardIn(h, 'U1', 'Everyone?'))).toBe(false);
      const [first] = sent;
      await h.driver.clickButton({
        userId: 'UM00',
        channel: String(first?.args.channel),
        ts: first?.ts ?? '',
        actionId: 'elicit_decline',
      });
      expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
      // Every card that went out did so before the question was answered (the posts are all awaited above).
      for (const user of members.slice(20))
        expect(h.standin.messagesIn(h.standin.dmChannelOf(user))).toEqual([]);
    } finally {
      await h.close();
    }
  });
});

describe('route dm with a listed answerer whose account is deactivated', () => {
  const logs = captureLogs('warn');
  printLogsOnFailure(logs);

  it('still asks the others, and logs whom Slack would not DM', async () => {
    const h = await startHarness({
      logger: logs.logger,
      slack: { route: 'dm', answerers: { requester: false, users: ['U0GONE', 'UAPP1'] } },
      workspace: { users: { U0GONE: { name: 'gone', deleted: true } } },
    });
    try {
      await ask(h, 'U1', 'Still there?');
      const line = await logs.waitFor((l) => Array.isArray(l.missed));
      expect(line).toMatchObject({ missed: [{ person: 'U0GONE' }] });
      const answerer = await cardIn(h, 'UAPP1', 'Still there?');
      await declineOn(h, 'UAPP1', answerer);
      expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
    } finally {
      await h.close();
    }
  });
});
