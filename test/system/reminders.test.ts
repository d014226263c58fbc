// Reminders as a server's policy sets them (slack.reminders), in the card's thread, mentioning who may answer.
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { startHarness } from './harness.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean', title: 'OK' } } };

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
});
