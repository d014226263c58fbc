// Socket Mode end to end: the bot opens its connection through apps.connections.open (app-level token) to the
// stand-in's WebSocket, takes a slash command, a click and a submission as envelopes and acks them over the
// socket, and reconnects when Slack sends `disconnect`. Probes stay on PORT; nothing listens for Slack there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandAnswer } from '../support/command-answers.js';
import { parseSamples, valueOf } from '../support/prometheus.js';
import { startHarness, type Harness } from './harness.js';

const NAME_FORM = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name', pattern: '^[A-Z][a-z]+$' } },
  required: ['name'],
} as const;

async function openForm(h: Harness, userId: string, card: { channel: string; ts: string }): Promise<string> {
  const click = await h.driver.clickButton({ userId, ...card, actionId: 'elicit_respond' });
  expect(click).toEqual({ status: 200, body: '' });
  await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews(userId).length === 1, 15_000);
  return h.standin.openViews(userId)[0]?.id ?? '';
}

function firstInput(h: Harness, viewId: string): string {
  const blocks = (h.standin.view(viewId)?.view.blocks ?? []) as { type: string; block_id: string }[];
  return blocks.find((b) => b.type === 'input')?.block_id ?? '';
}

describe('Socket Mode', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ socketMode: true });
  });
  afterAll(async () => {
    await h.close();
  });

  it('connects with the app-level token and is told hello', () => {
    const opened = h.standin.calls.filter((c) => c.method === 'apps.connections.open');
    expect(opened.map((c) => c.ok)).toEqual([true]);
    expect(h.standin.socketMode.connections).toBe(1);
  });

  it('takes a slash command, a click and a submission as envelopes and answers the server', async () => {
    const request = h.driver.slashCommandRequest({
      userId: 'U1',
      command: '/mcp',
      text: `run fixture ask ${JSON.stringify({ message: 'Name?', schema: NAME_FORM })}`,
    });
    // Acked at once over the socket with no payload; "Running…" comes through the command's response_url.
    const { ack, answer } = await commandAnswer((r) => h.driver.send(r), h.standin, request);
    expect(ack).toMatchObject({ status: 200, body: '' });
    expect(answer.args).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('Running') as unknown,
    });
    const channel = h.standin.dmChannelOf('U1');
    await h.standin.waitForCall('chat.postMessage', (c) => c.ok && c.args.channel === channel, 15_000);
    const [card] = h.standin.messagesIn(channel);
    const viewId = await openForm(h, 'U1', { channel, ts: card?.ts ?? '' });

    const invalid = await h.driver.submitView({
      userId: 'U1',
      viewId,
      values: { [firstInput(h, viewId)]: 'ada' },
    });
    // A view_submission envelope accepts a response payload: the field errors come back in the ack.
    expect(invalid.json).toMatchObject({ response_action: 'errors' });
    const submit = await h.driver.submitView({
      userId: 'U1',
      viewId,
      values: { [firstInput(h, viewId)]: 'Ada' },
    });
    // An empty ack closes the modal, as an empty HTTP 200 does.
    expect(submit).toEqual({ status: 200, body: '' });
    expect(h.standin.openViews('U1')).toEqual([]);
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { name: 'Ada' } });
  });

  it('reconnects through a fresh apps.connections.open after Slack sends disconnect, and keeps serving', async () => {
    h.standin.socketMode.disconnect('refresh_requested');
    await h.standin.socketMode.waitForConnections(2);
    expect(h.standin.calls.filter((c) => c.method === 'apps.connections.open' && c.ok)).toHaveLength(2);
    const card = await h.ask('U2', NAME_FORM);
    const decline = await h.driver.clickButton({ userId: 'U2', ...card, actionId: 'elicit_decline' });
    expect(decline.status).toBe(200);
    expect(await h.toolResult('U2')).toEqual({ action: 'decline' });
  });

  it('times each acked envelope in the Slack ack latency histogram, labelled socket', async () => {
    const socketAcks = async (): Promise<{ count?: number; within3s?: number; http?: number }> => {
      const samples = parseSamples(await (await fetch(`http://127.0.0.1:${h.relay.port}/metrics`)).text());
      const labels = { mode: 'socket', status: 'ack' };
      return {
        count: valueOf(samples, 'elicit_relay_slack_ack_seconds_count', labels),
        within3s: valueOf(samples, 'elicit_relay_slack_ack_seconds_bucket', { ...labels, le: '3' }),
        http: valueOf(samples, 'elicit_relay_slack_ack_seconds_count', { mode: 'http' }),
      };
    };
    const before = await socketAcks();
    const command = await h.driver.slashCommand({ userId: 'U3', command: '/mcp', text: 'help' });
    expect(command.status).toBe(200);
    const after = await socketAcks();
    expect(before.count).toBeGreaterThan(0);
    expect(after.count).toBe((before.count ?? 0) + 1);
    expect(after.within3s).toBe(after.count);
    expect(after.http).toBeUndefined();
  });

  it('serves /healthz and /readyz on PORT, and no Slack endpoint there', async () => {
    const base = `http://127.0.0.1:${h.relay.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ok: true, redis: 'ok' });
    expect((await fetch(`${base}/slack/events`, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
