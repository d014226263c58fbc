// Slack's rules kept, end to end through the stand-in and real Redis: acks come back before slow work is done,
// a click or submit from another workspace or app changes nothing, and /readyz tells the load balancer when
// this replica can serve (Redis answers, not draining) with each MCP server's state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackDriver } from '../../src/standin/index.js';
import { redisUrl } from '../setup/context.js';
import { startProxy, type TcpProxy } from '../store/tcp-proxy.js';
import { SIGNING_SECRET, startHarness, type Harness } from './harness.js';

const NAME_FORM = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
} as const;

const readyz = async (h: Harness): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`http://127.0.0.1:${h.relay.port}/readyz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const driverAs = (h: Harness, who: { teamId?: string; appId?: string }): SlackDriver =>
  new SlackDriver({
    eventsUrl: `http://127.0.0.1:${h.relay.port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    standin: h.standin,
    ...who,
  });

describe('acks, workspace checks and readiness', () => {
  let h: Harness;
  let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await startProxy(redisUrl());
    h = await startHarness({ redisUrl: proxy.url });
  });
  afterAll(async () => {
    await h.close();
    await proxy.close();
  });

  it('acks /mcp run before the slow work it starts has finished', async () => {
    const slow = h.standin.holdNext('conversations.open');
    const command = await h.driver.slashCommand({
      userId: 'USLOW1',
      command: '/mcp',
      text: `run fixture ask ${JSON.stringify({ message: 'Name?', schema: NAME_FORM })}`,
    });
    // The command was answered while the card's conversations.open is still held by the stand-in.
    expect(command.status).toBe(200);
    await slow.arrived;
    expect(h.standin.calls.filter((c) => c.method === 'conversations.open' && c.ok)).toEqual([]);
    slow.release();
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === h.standin.dmChannelOf('USLOW1'),
      15_000,
    );
  });

  it('acks a Respond click before views.open has finished', async () => {
    const card = await h.ask('USLOW2', NAME_FORM);
    const slow = h.standin.holdNext('views.open');
    const click = await h.driver.clickButton({ userId: 'USLOW2', ...card, actionId: 'elicit_respond' });
    expect(click.status).toBe(200);
    await slow.arrived;
    expect(h.standin.openViews('USLOW2')).toEqual([]);
    slow.release();
    await h.standin.waitForCall(
      'views.open',
      (c) => c.ok && h.standin.openViews('USLOW2').length === 1,
      15_000,
    );
  });

  it('refuses a click from another workspace and a submit from another app, changing nothing', async () => {
    const card = await h.ask('U1', NAME_FORM);
    const otherTeam = driverAs(h, { teamId: 'T0OTHER' });
    expect((await otherTeam.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' })).status).toBe(
      200,
    );
    await h.standin.waitForCall(
      'response_url',
      (c) => c.ok && JSON.stringify(c.args).includes('another workspace'),
      15_000,
    );
    expect(h.standin.message(card.channel, card.ts)?.updates).toBe(0);

    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_respond' });
    await h.standin.waitForCall('views.open', (c) => c.ok && h.standin.openViews('U1').length === 1, 15_000);
    const [view] = h.standin.openViews('U1');
    const viewId = view?.id ?? '';
    const blocks = (view?.view.blocks ?? []) as { type: string; block_id: string }[];
    const nameBlock = blocks.find((b) => b.type === 'input')?.block_id ?? '';
    const otherApp = driverAs(h, { appId: 'A0OTHERAPP' });
    const submit = await otherApp.submitView({ userId: 'U1', viewId, values: { [nameBlock]: 'Mallory' } });
    expect(submit.json).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(submit.json)).toContain('another workspace or app');
    expect(h.standin.message(card.channel, card.ts)?.updates).toBe(0);

    // The question is still open to its own workspace and app.
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    expect(await h.toolResult('U1')).toEqual({ action: 'decline' });
  });

  it('answers /readyz 200 with each MCP server, and 503 while Redis does not answer', async () => {
    const ready = await readyz(h);
    expect(ready).toMatchObject({ status: 200, body: { ok: true, serving: true, redis: 'ok' } });
    expect(ready.body.servers).toEqual([expect.objectContaining({ server: 'fixture' })]);

    await proxy.cut();
    expect(await readyz(h)).toMatchObject({
      status: 503,
      body: { ok: false, serving: true, redis: 'unreachable' },
    });
    const live = await fetch(`http://127.0.0.1:${h.relay.port}/healthz`);
    expect(live.status).toBe(200);
    await proxy.restore();
    // ioredis reconnects on its own schedule (backoff up to 2 s): probe as a load balancer would.
    let again = await readyz(h);
    for (let probe = 0; probe < 50 && again.status !== 200; probe++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await readyz(h);
    }
    expect(again.status).toBe(200);
  });
});

describe('/readyz while draining', () => {
  it('answers 503 once shutdown began, while waiting questions are still being ended; /healthz stays 200', async () => {
    const h = await startHarness();
    const card = await h.ask('U1', NAME_FORM);
    // Shutdown ends the waiting question and updates its card; the stand-in holds that update.
    const update = h.standin.holdNext('chat.update');
    const closing = h.close();
    await update.arrived;
    expect(await readyz(h)).toMatchObject({ status: 503, body: { ok: false, serving: false } });
    // Alive and finishing its work: a liveness probe failing now would have the replica restarted mid-stop.
    expect((await fetch(`http://127.0.0.1:${h.relay.port}/healthz`)).status).toBe(200);
    update.release();
    await closing;
    expect(h.standin.message(card.channel, card.ts)?.updates).toBe(1);
  });
});
