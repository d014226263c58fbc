// Routing and who may answer, per server's `slack` policy: the command's thread, an approvals channel, listed
// approvers, user groups and channel members; everyone else is told whom the question is for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { openForm, startApprovals, startHarness, type Harness } from './harness.js';

const SCHEMA = {
  type: 'object',
  properties: { reason: { type: 'string', title: 'Reason' } },
  required: ['reason'],
};

/** The stand-in's bot user: channels that list it as a member take the bot's posts. */
const BOT = 'U0STANDINBOT';

const isCard = (c: RecordedCall): boolean => JSON.stringify(c.args.blocks ?? '').includes('elicit_respond');

/** Runs `/mcp run fixture ask` as `userId` in `channelId` and waits for the card in `cardChannel`. */
async function ask(h: Harness, userId: string, channelId: string, cardChannel: string, message: string) {
  const args = JSON.stringify({ message, schema: SCHEMA });
  await h.driver.slashCommand({ userId, command: '/mcp', text: `run fixture ask ${args}`, channelId });
  const call = await h.standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && c.args.channel === cardChannel && isCard(c) && JSON.stringify(c.args).includes(message),
    15_000,
  );
  const posted = h.standin
    .messagesIn(cardChannel)
    .findLast((m) => JSON.stringify(m.blocks).includes(message));
  return { channel: cardChannel, ts: posted?.ts ?? '', call };
}

const ephemeralTo = (h: Harness, userId: string) =>
  h.standin.waitForCall('response_url', (c) => {
    const text = JSON.stringify(c.args);
    return (
      c.args.response_type === 'ephemeral' && text.includes('only they can answer') && text.includes(userId)
    );
  });

/** The JSON of the modal on top of the person's stack. */
const topView = (h: Harness, userId: string): string =>
  JSON.stringify(h.standin.openViews(userId).at(-1)?.view ?? {});

const reasonBlock = (h: Harness, viewId: string): string => {
  const blocks = h.standin.view(viewId)?.view.blocks as { type: string; block_id: string }[];
  return blocks.find((b) => b.type === 'input')?.block_id ?? '';
};

describe('asking in the thread where the command ran', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      slack: { route: 'thread' },
      workspace: { channels: { C0TEAM: ['U1', 'U2', BOT], C0NOBOT: ['U1'] } },
    });
  });
  afterAll(() => h.close());

  /** The message the run's thread hangs from: "<@user> ran `ask` on `fixture`…". */
  const runMessage = (channel: string, userId: string) =>
    h.standin.messagesIn(channel).findLast((m) => m.text?.startsWith(`<@${userId}> ran ask on`));

  it('starts a thread for the run in that channel; the card, naming the server’s version and the requester, and the result go in it', async () => {
    const card = await ask(h, 'U1', 'C0TEAM', 'C0TEAM', 'Deploy to staging?');
    const thread = runMessage('C0TEAM', 'U1');
    expect(thread?.threadTs).toBeUndefined();
    expect(card.call.args.thread_ts).toBe(thread?.ts);
    const text = JSON.stringify(card.call.args.blocks);
    expect(text).toContain('Elicit Fixture 1.0.0');
    expect(text).toContain('Requested by <@U1>');
    expect(card.call.args).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    const result = await h.toolResult('U1', { channel: 'C0TEAM', threadTs: thread?.ts ?? '' });
    expect(result).toEqual({ action: 'decline' });
  });

  it('refuses a colleague in the channel: only the requester may answer by default', async () => {
    const card = await ask(h, 'U1', 'C0TEAM', 'C0TEAM', 'Only mine');
    await h.driver.clickButton({ userId: 'U2', ...card, actionId: 'elicit_decline' });
    expect(JSON.stringify((await ephemeralTo(h, 'U1')).args)).toContain('<@U1>');
    expect(h.standin.message(card.channel, card.ts)?.updates).toBe(0);
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    const threadTs = runMessage('C0TEAM', 'U1')?.ts ?? '';
    expect(await h.toolResult('U1', { channel: 'C0TEAM', threadTs })).toEqual({ action: 'decline' });
  });

  it('keeps the channel through the arguments form: the run started from it goes on in a thread there', async () => {
    await h.driver.slashCommand({
      userId: 'U2',
      command: '/mcp',
      text: 'run fixture book',
      channelId: 'C0TEAM',
    });
    await h.standin.waitForCall('views.update', () => topView(h, 'U2').includes('Room name'), 15_000);
    const form = h.standin.openViews('U2').at(-1);
    const blocks = (form?.view.blocks ?? []) as { type: string; block_id: string }[];
    const [room, people] = blocks.filter((b) => b.type === 'input').map((b) => b.block_id);
    const values = { [room ?? '']: 'Blue', [people ?? '']: '4' };
    await h.driver.submitView({ userId: 'U2', viewId: form?.id ?? '', values });
    const posted = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === 'C0TEAM' && String(c.args.text).includes('book on fixture finished'),
      15_000,
    );
    const thread = h.standin.messagesIn('C0TEAM').findLast((m) => m.text?.startsWith('<@U2> ran book on'));
    expect(thread).toBeDefined();
    expect(posted.args.thread_ts).toBe(thread?.ts);
  });

  it('reruns a run from its thread only for the person who ran it; a colleague’s Retry is answered privately', async () => {
    const args = JSON.stringify({ url: 'https://auth.example.com/team-sign-in' });
    await h.driver.slashCommand({
      userId: 'U1',
      command: '/mcp',
      text: `run fixture require_url_once ${args}`,
      channelId: 'C0TEAM',
    });
    const links = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === 'C0TEAM' && JSON.stringify(c.args.blocks).includes('mcp_retry'),
      15_000,
    );
    const posted = h.standin.messagesIn('C0TEAM').find((m) => JSON.stringify(m.blocks).includes('mcp_retry'));
    const card = { channel: 'C0TEAM', ts: posted?.ts ?? '' };

    await h.driver.clickButton({ userId: 'U2', ...card, actionId: 'mcp_retry' });
    const refused = await h.standin.waitForCall(
      'response_url',
      (c) => c.args.response_type === 'ephemeral' && String(c.args.text).includes('can run this call again'),
    );
    expect(refused.args).toMatchObject({ replace_original: false });
    expect(String(refused.args.text)).toContain('<@U1>');
    expect(JSON.stringify(h.standin.message(card.channel, card.ts)?.blocks)).toContain('mcp_retry');

    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'mcp_retry' });
    const done = await h.standin.waitForCall(
      'chat.postMessage',
      (c) =>
        c.ok &&
        c.args.channel === 'C0TEAM' &&
        String(c.args.text).includes('require_url_once on fixture finished'),
      15_000,
    );
    expect(done.args.thread_ts).toBe(links.args.thread_ts);
  });

  it('asks in the DM itself, with no thread, when the command ran in the person’s DM with the bot', async () => {
    const dm = h.standin.dmChannelOf('U1');
    const card = await ask(h, 'U1', dm, dm, 'Right here');
    expect(card.call.args.thread_ts).toBeUndefined();
    expect(runMessage(dm, 'U1')).toBeUndefined();
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
  });

  it('runs in the DM when the channel refuses the bot (not a member), and says why and how to fix it', async () => {
    const dm = h.standin.dmChannelOf('U1');
    const card = await ask(h, 'U1', 'C0NOBOT', dm, 'Somewhere I cannot post');
    const notice = h.standin.messagesIn(dm).find((m) => m.text?.includes('<#C0NOBOT>'));
    expect(notice?.text).toContain('I cannot post in <#C0NOBOT> (`not_in_channel`)');
    expect(notice?.text).toContain('/invite');
    expect(card.call.args.thread_ts).toBeUndefined();
    expect(h.standin.messagesIn('C0NOBOT')).toEqual([]);
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
  });
});

describe('an approvals channel with listed approvers and a user group', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApprovals(['UAPP1'], { S0OPS: ['UOPS1', 'UOPS2'] });
  });
  afterAll(() => h.close());

  it('asks there, refuses the requester’s click and a stranger’s submit, and an approver answers', async () => {
    const card = await ask(h, 'U1', h.standin.dmChannelOf('U1'), 'C0APPROVE', 'Approve the refund?');
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    const refusal = JSON.stringify((await ephemeralTo(h, 'UAPP1')).args);
    expect(refusal).toContain('members of <!subteam^S0OPS>');
    const viewId = await openForm(h, 'UOPS2', card);
    const view = h.standin.view(viewId)?.view ?? {};
    const forged = await h.driver.send({
      payload: {
        type: 'view_submission',
        team: { id: h.standin.identity.teamId, domain: 'standin' },
        user: { id: 'UX', username: 'ux', name: 'ux', team_id: h.standin.identity.teamId },
        api_app_id: h.standin.identity.appId,
        view: { ...view, state: { values: {} } },
      },
    });
    expect(forged.json).toMatchObject({ response_action: 'update' });
    expect(forged.body).toContain('only they can answer');
    const submit = await h.driver.submitView({
      userId: 'UOPS2',
      viewId,
      values: { [reasonBlock(h, viewId)]: 'customer is right' },
    });
    expect(submit.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { reason: 'customer is right' } });
    const ended = await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts);
    expect(JSON.stringify(ended.args.blocks)).toContain('Answered by <@UOPS2>');
  });

  it('replaces a form that opened while another approver declined, instead of leaving it open to a refused submit', async () => {
    const card = await ask(h, 'U1', h.standin.dmChannelOf('U1'), 'C0APPROVE', 'Opened too late?');
    const opening = h.standin.holdNext('views.open');
    await h.driver.clickButton({ userId: 'UOPS2', ...card, actionId: 'elicit_respond' });
    await opening.arrived;
    // Declined while the form is on its way: the end's replacement runs with no form remembered yet.
    await h.driver.clickButton({ userId: 'UAPP1', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
    await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts);
    opening.release();

    const replaced = await h.standin.waitForCall(
      'views.update',
      (c) => c.ok && JSON.stringify(c.args.view).includes('Nothing to answer'),
      10_000,
    );
    const form = h.standin.openViews('UOPS2').at(-1);
    expect(replaced.args.view_id).toBe(form?.id);
    expect(JSON.stringify(form?.view.blocks)).not.toContain('input');
  });

  it('lets the first of two racing approvers win; the second is told it was already answered', async () => {
    const card = await ask(h, 'U1', h.standin.dmChannelOf('U1'), 'C0APPROVE', 'Race?');
    const first = await openForm(h, 'UAPP1', card);
    const second = await openForm(h, 'UOPS1', card);
    const [a, b] = await Promise.all([
      h.driver.submitView({ userId: 'UAPP1', viewId: first, values: { [reasonBlock(h, first)]: 'a' } }),
      h.driver.submitView({ userId: 'UOPS1', viewId: second, values: { [reasonBlock(h, second)]: 'b' } }),
    ]);
    const winners = [a, b].filter((d) => d.body === '');
    expect(winners).toHaveLength(1);
    const loser = a.body === '' ? b : a;
    const result = (await h.toolResult('U1')) as { content: { reason: string } };
    const winner = result.content.reason === 'a' ? 'UAPP1' : 'UOPS1';
    // The form becomes a note naming the approver who won, by name (mrkdwn, where Slack shows a mention).
    const note = (JSON.parse(loser.body) as { view: { blocks: { text: object }[] } }).view.blocks[0]?.text;
    expect(note).toEqual({
      type: 'mrkdwn',
      text: `This question has already been answered by <@${winner}>.`,
    });
    const ended = await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts);
    expect(JSON.stringify(ended.args.blocks)).toContain(`Answered by <@${winner}>`);
  });
});

describe('anyone in the approvals channel', () => {
  it('accepts a member’s answer and refuses someone outside the channel', async () => {
    const h = await startHarness({
      slack: { route: 'channel', channel: 'C0DESK', answerers: { requester: false, channel: true } },
      workspace: { channels: { C0DESK: ['UDESK1', 'UDESK2', BOT] } },
    });
    try {
      const card = await ask(h, 'U1', h.standin.dmChannelOf('U1'), 'C0DESK', 'Anyone?');
      await h.driver.clickButton({ userId: 'UOUT', ...card, actionId: 'elicit_decline' });
      expect(JSON.stringify((await ephemeralTo(h, '#C0DESK')).args)).toContain('people in <#C0DESK>');
      await h.driver.clickButton({ userId: 'UDESK2', ...card, actionId: 'elicit_decline' });
      expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
      const ended = await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts);
      expect(JSON.stringify(ended.args.blocks)).toContain('Declined by <@UDESK2>');
    } finally {
      await h.close();
    }
  });
});
