// End to end: Slack stand-in → bot (real Bolt, real Redis) → fixture MCP server over stdio, and back. The
// questions nobody answers (the deadline, a bot stopping, a server's policy): e2e-unanswered.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../src/standin/index.js';
import { QuestionStore } from '../../src/store/index.js';
import { redisUrl } from '../setup/context.js';
import { questionIdOnCard } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';
import { EVERY_KIND, expectCardEnded, openForm } from './e2e-support.js';

const blockOf = (h: Harness, viewId: string, label: string): string => {
  const view = h.standin.view(viewId)?.view as {
    blocks: { type: string; block_id: string; label?: { text: string } }[];
  };
  const block = view.blocks.find((b) => b.type === 'input' && b.label?.text.startsWith(label));
  if (!block) throw new Error(`no input labelled ${label}`);
  return block.block_id;
};

describe('one elicitation, end to end', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('accepts a form of every field kind, with content typed by the schema and empty optionals absent', async () => {
    const card = await h.ask('U1', EVERY_KIND);
    const viewId = await openForm(h, 'U1', card);
    const submit = await h.driver.submitView({
      userId: 'U1',
      viewId,
      values: {
        [blockOf(h, viewId, 'Your name')]: 'Ada',
        [blockOf(h, viewId, 'ratio')]: '0.25',
        [blockOf(h, viewId, 'count')]: '3',
        [blockOf(h, viewId, 'I agree')]: 'Yes',
        [blockOf(h, viewId, 'colour')]: 'green',
      },
    });
    expect(submit.status).toBe(200);
    expect(submit.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({
      action: 'accept',
      content: { name: 'Ada', ratio: 0.25, count: 3, agree: true, colour: 'green' },
    });
    await expectCardEnded(h, card, 'Answered');
  });

  it('stores with each question who ran the tool, in which workspace and channel', async () => {
    const card = await h.ask('U7', EVERY_KIND);
    const questionId = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks) ?? '';
    const store = await QuestionStore.open({ url: redisUrl(), prefix: h.prefix, holderId: 'inspector' });
    try {
      expect((await store.get(questionId))?.origin).toEqual({
        userId: 'U7',
        teamId: h.standin.identity.teamId,
        appId: h.standin.identity.appId,
        channelId: h.standin.dmChannelOf('U7'),
      });
    } finally {
      await store.close();
    }
    await h.driver.clickButton({ userId: 'U7', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U7')).toEqual({ action: 'decline' });
  });

  it('suggests the options of a select too long to list as the person types, and relays those picked', async () => {
    const towns = Array.from({ length: 150 }, (_, i) => `Town ${i + 1}`);
    const card = await h.ask('U1', {
      type: 'object',
      properties: {
        town: { type: 'string', title: 'Town', enum: towns },
        near: { type: 'array', title: 'Near', items: { type: 'string', enum: towns } },
      },
      required: ['town'],
    });
    const viewId = await openForm(h, 'U1', card);
    const [town, near] = [blockOf(h, viewId, 'Town'), blockOf(h, viewId, 'Near')];
    const suggest = async (blockId: string, value: string) => {
      const blocks = h.standin.view(viewId)?.view.blocks as {
        block_id: string;
        element: { action_id: string };
      }[];
      const actionId = blocks.find((b) => b.block_id === blockId)?.element.action_id ?? '';
      const options = await h.driver.suggest({ userId: 'U1', viewId, actionId, value });
      return options.map((o) => (o.text as { text: string }).text);
    };
    expect(await suggest(town, 'town 14')).toEqual([
      'Town 14',
      ...Array.from({ length: 10 }, (_, i) => `Town 14${i}`),
    ]);
    expect(await suggest(near, '50')).toEqual(['Town 50', 'Town 150']);
    const submit = await h.driver.submitView({
      userId: 'U1',
      viewId,
      values: { [town]: 'Town 142', [near]: ['Town 50', 'Town 150'] },
    });
    expect(submit.body).toBe('');
    expect(await h.toolResult('U1')).toEqual({
      action: 'accept',
      content: { town: 'Town 142', near: ['Town 50', 'Town 150'] },
    });
  });

  it('relays decline when the person clicks Decline, and updates the card', async () => {
    const card = await h.ask('U2', EVERY_KIND);
    expect((await h.driver.clickButton({ userId: 'U2', ...card, actionId: 'elicit_decline' })).status).toBe(
      200,
    );
    expect(await h.toolResult('U2')).toEqual({ action: 'decline' });
    await expectCardEnded(h, card, 'Declined');
  });

  it('relays cancel when the person closes the form', async () => {
    const card = await h.ask('U3', EVERY_KIND);
    const viewId = await openForm(h, 'U3', card);
    expect((await h.driver.closeView({ userId: 'U3', viewId })).status).toBe(200);
    expect(await h.toolResult('U3')).toEqual({ action: 'cancel' });
    await expectCardEnded(h, card, 'Closed');
  });

  it('answers an invalid submission with errors on the field, then accepts a valid one', async () => {
    const schema = {
      type: 'object',
      properties: { code: { type: 'string', title: 'Code', pattern: '^[A-Z]{3}$' } },
      required: ['code'],
    };
    const card = await h.ask('U4', schema);
    const viewId = await openForm(h, 'U4', card);
    const block = blockOf(h, viewId, 'Code');
    const invalid = await h.driver.submitView({ userId: 'U4', viewId, values: { [block]: 'abc' } });
    expect(invalid.json).toMatchObject({
      response_action: 'errors',
      errors: { [block]: expect.any(String) as unknown },
    });
    const valid = await h.driver.submitView({ userId: 'U4', viewId, values: { [block]: 'ABC' } });
    expect(valid.body).toBe('');
    expect(await h.toolResult('U4')).toEqual({ action: 'accept', content: { code: 'ABC' } });
  });

  it('rejects forged signatures and timestamps over 5 minutes old or ahead with 401, changing nothing', async () => {
    const card = await h.ask('U5', EVERY_KIND);
    const message = h.standin.message(card.channel, card.ts);
    const questionId = questionIdOnCard(message?.blocks);
    const payload = {
      type: 'block_actions',
      team: { id: 'T0STANDIN', domain: 'standin' },
      user: { id: 'U5', username: 'u5', name: 'u5', team_id: 'T0STANDIN' },
      api_app_id: h.standin.identity.appId,
      trigger_id: h.standin.issueTriggerId('U5'),
      container: { type: 'message', message_ts: card.ts, channel_id: card.channel, is_ephemeral: false },
      channel: { id: card.channel, name: 'directmessage' },
      message: { type: 'message', ts: card.ts, blocks: message?.blocks },
      response_url: h.standin.responseUrl({ channel: card.channel, userId: 'U5', messageTs: card.ts }),
      actions: [
        {
          type: 'button',
          action_id: 'elicit_decline',
          block_id: 'actions',
          value: questionId,
          text: { type: 'plain_text', text: 'Decline' },
          action_ts: '1.1',
        },
      ],
    };
    // Seconds from now, taken just before sending; 10 s past the 300 s bound so a slow run cannot cross it
    // (the exact ±301 s boundary is tested with a fixed clock in test/slack/http-server.test.ts).
    const inSec = (offset: number): number => Math.floor(Date.now() / 1000) + offset;
    expect((await h.driver.send({ payload }, { secret: 'not-the-secret' })).status).toBe(401);
    expect((await h.driver.send({ payload }, { timestampSec: inSec(-310) })).status).toBe(401);
    expect((await h.driver.send({ payload }, { timestampSec: inSec(310) })).status).toBe(401);
    expect((await h.driver.send({ payload }, { tamper: true })).status).toBe(401);
    expect(h.standin.calls.filter((c) => c.method === 'chat.update' && c.args.ts === card.ts)).toEqual([]);
    // The same payload, signed properly, is a real decline: the 401s were about the signature alone.
    expect((await h.driver.send({ payload })).status).toBe(200);
    expect(await h.toolResult('U5')).toEqual({ action: 'decline' });
  });

  it('answers a schema it cannot render with JSON-RPC -32602 instead of hanging', async () => {
    const nested = { type: 'object', properties: { address: { type: 'object', properties: {} } } };
    await h.driver.slashCommand({
      userId: 'U6',
      command: '/mcp',
      text: `run fixture ask ${JSON.stringify({ message: 'Where?', schema: nested })}`,
    });
    const result = await h.toolResult('U6');
    expect(result).toMatchObject({
      // The SDK's "MCP error <code>: " prefix once, then the reason (it once came twice, #15.13).
      error: {
        code: -32602,
        message:
          'MCP error -32602: Invalid elicitation request: property "address" is not supported ' +
          '(fields must be a flat string, number, integer, boolean or enum schema)',
      },
    });
    expect(
      h.standin
        .messagesIn(h.standin.dmChannelOf('U6'))
        .some((m) => JSON.stringify(m.blocks).includes('elicit_respond')),
    ).toBe(false);
  });

  it('tells a second person the question is not theirs and keeps it pending', async () => {
    const card = await h.ask('U7', EVERY_KIND);
    expect((await h.driver.clickButton({ userId: 'U8', ...card, actionId: 'elicit_decline' })).status).toBe(
      200,
    );
    const reply = await h.standin.waitForCall('response_url', (c) =>
      JSON.stringify(c.args).includes('only they can answer'),
    );
    expect(JSON.stringify(reply.args)).toContain('<@U7>');
    expect((await h.driver.clickButton({ userId: 'U7', ...card, actionId: 'elicit_decline' })).status).toBe(
      200,
    );
    expect(await h.toolResult('U7')).toEqual({ action: 'decline' });
  });

  it('withdraws the question when the server cancels its request, and updates the card', async () => {
    const card = await h.ask('U9', EVERY_KIND, 'Quick one', { timeoutMs: 700 });
    const result = await h.toolResult('U9');
    expect(result).toMatchObject({ error: { code: -32001 } });
    await expectCardEnded(h, card, 'Withdrawn by the server');
  });

  it('speaks Chinese to a person whose Slack locale is zh-CN', async () => {
    const card = await h.ask('UZH', EVERY_KIND, '请输入你的GitHub用户名');
    const posted = JSON.stringify(h.standin.message(card.channel, card.ts)?.blocks);
    expect(posted).toContain('回答');
    expect(posted).toContain('请输入你的GitHub用户名');
    const viewId = await openForm(h, 'UZH', card);
    const view = h.standin.view(viewId)?.view as { submit: { text: string }; close: { text: string } };
    expect(`${view.submit.text}${view.close.text}`).toMatch(/[\u4e00-\u9fff]/);
    await h.driver.closeView({ userId: 'UZH', viewId });
    expect(await h.toolResult('UZH')).toEqual({ action: 'cancel' });
    const ended = await h.standin.waitForCall('chat.update', (c) => c.args.ts === card.ts);
    expect(JSON.stringify(ended.args.blocks)).toMatch(/[\u4e00-\u9fff]/);
  });

  it('retries a card post Slack rate-limits after its Retry-After, and the question goes on', async () => {
    h.standin.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    const card = await h.ask('UR1', EVERY_KIND);
    const attempts = h.standin.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.channel === card.channel,
    );
    expect(attempts.map((c) => c.error ?? 'ok')).toEqual(['ratelimited', 'ok']);
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    await h.driver.clickButton({ userId: 'UR1', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('UR1')).toEqual({ action: 'decline' });
  });

  it('opens the DM and reads the locale again after Slack rate-limits them, and the card is posted', async () => {
    h.standin.failNext('conversations.open', 'ratelimited', { retryAfterSec: 1 });
    h.standin.failNext('users.info', 'ratelimited', { retryAfterSec: 1 });
    const card = await h.ask('UR3', EVERY_KIND);
    expect(card.channel).toBe(h.standin.dmChannelOf('UR3'));
    const forUR3 = (c: RecordedCall) => c.args.users === 'UR3' || c.args.user === 'UR3';
    for (const method of ['conversations.open', 'users.info']) {
      const calls = h.standin.calls.filter((c) => c.method === method && forUR3(c));
      expect(calls.map((c) => c.error ?? 'ok')).toEqual(['ratelimited', 'ok']);
      expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    }
    await h.driver.clickButton({ userId: 'UR3', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('UR3')).toEqual({ action: 'decline' });
  });

  it('ends a question whose card Slack refuses as cancel (delivery failed) at once', async () => {
    h.standin.failNext('chat.postMessage', 'channel_not_found');
    await h.driver.slashCommand({
      userId: 'UR2',
      command: '/mcp',
      text: `run fixture ask ${JSON.stringify({ message: 'Lost', schema: EVERY_KIND })}`,
    });
    expect(await h.toolResult('UR2')).toEqual({ action: 'cancel' });
  });

  it('answers /healthz with 200 once ready', async () => {
    const response = await fetch(`http://127.0.0.1:${h.relay.port}/healthz`);
    expect(response.status).toBe(200);
  });
});
