// A person cancels their own `/mcp run` from the Cancel button of its "working…" message: two bot replicas on one
// Redis and the Slack stand-in, and an in-process 2025 server (test/api/gateway-downstreams.ts) whose tool `ask`
// asks the person a question and notes when the bot cancels its tools/call. The run goes on replica 0; the click
// reaches replica 0 itself or replica 1, and both end the same way: the server told (notifications/cancelled),
// the question withdrawn and its card saying so, the message saying who cancelled it, and no result posted. A
// 2025-11-25 task's run (test/system/task-downstream.ts) gets its task cancelled on the server (tasks/cancel).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransport, SlackDriver, type Outgoing } from '../../src/standin/index.js';
import { legacyDownstream } from '../api/gateway-downstreams.js';
import { SIGNING_SECRET, startHarness, type Harness } from './harness.js';
import { taskDownstream } from './task-downstream.js';

const CANCEL = 'mcp_cancel_run';

describe('cancelling a person’s own run from its working message', () => {
  let h: Harness;
  let legacy: Awaited<ReturnType<typeof legacyDownstream>>;
  let tasks: Awaited<ReturnType<typeof taskDownstream>>;
  beforeAll(async () => {
    [legacy, tasks] = await Promise.all([legacyDownstream(), taskDownstream()]);
    h = await startHarness({
      servers: { legacy: { url: legacy.url }, tasks: { url: tasks.url } },
      replicas: 2,
    });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await Promise.all([legacy.close(), tasks.close()]);
  });

  const driver = (replica: number): SlackDriver => {
    const found = h.drivers[replica];
    if (found === undefined) throw new Error(`no replica ${replica}`);
    return found;
  };

  /** Runs `ask` on replica 0 as `userId`; resolves once its card and its working message (with Cancel) are up. */
  async function runAsking(userId: string, message: string) {
    const channel = h.standin.dmChannelOf(userId);
    await driver(0).slashCommand({
      userId,
      command: '/mcp',
      text: `run legacy ask ${JSON.stringify({ message })}`,
    });
    const has = (marker: string) => (blocks: unknown) => JSON.stringify(blocks ?? '').includes(marker);
    const card = await postedIn(channel, has(message));
    const working = await postedIn(channel, has(CANCEL));
    return { userId, channel, card, working };
  }

  /** The ts of the first message posted in `channel` whose blocks `match`, once posted. */
  async function postedIn(channel: string, match: (blocks: unknown) => boolean): Promise<string> {
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === channel && match(c.args.blocks),
      30_000,
    );
    const found = h.standin.messagesIn(channel).find((m) => match(m.blocks));
    if (found === undefined) throw new Error('message not found');
    return found.ts;
  }

  type Run = Awaited<ReturnType<typeof runAsking>>;

  /** Waits for the run's message to say it was cancelled, and for its card's update; resolves with both texts. */
  async function endOfCancelled(run: Run) {
    const said = await h.standin.waitForCall(
      'chat.update',
      (c) => c.args.ts === run.working && String(c.args.text).includes('was cancelled by'),
      15_000,
    );
    const card = await h.standin.waitForCall('chat.update', (c) => c.args.ts === run.card, 15_000);
    return {
      said: String(said.args.text),
      blocks: JSON.stringify(said.args.blocks),
      card: JSON.stringify(card.args.blocks),
    };
  }

  /** The next private note through a response_url containing `text`. */
  const note = (text: string) =>
    h.standin.waitForCall('response_url', (c) => JSON.stringify(c.args).includes(text), 15_000);

  /** The result messages of `ask` posted in `channel` (finished or failed). */
  const results = (channel: string) =>
    h.standin.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === channel &&
        /ask on legacy (finished|failed)/.test(String(c.args.text)),
    );

  /**
   * Clicks built now, from the message as the person sees it, and delivered to replica `replica` later: a click
   * from a copy of the message Slack has not updated yet.
   */
  function lateClicks(replica: number) {
    const held: Outgoing[] = [];
    const real = new HttpTransport({
      eventsUrl: `http://127.0.0.1:${h.replicas[replica]?.port}/slack/events`,
      signingSecret: SIGNING_SECRET,
      clock: Date.now,
    });
    const holding = {
      deliver: (out: Outgoing) => {
        held.push(out);
        return Promise.resolve({ status: 0, body: '' });
      },
    };
    return {
      driver: new SlackDriver({ standin: h.standin, transport: holding }),
      deliver: () => Promise.all(held.splice(0).map((out) => real.deliver(out))),
    };
  }

  it('stops the run on the replica running it: the server is told, the question withdrawn, no result posted', async () => {
    const run = await runAsking('U1', 'Deploy (cancelled on the same replica)?');
    expect(JSON.stringify(h.standin.message(run.channel, run.working)?.blocks)).toContain('"text":"Cancel"');
    await driver(0).clickButton({ userId: 'U1', channel: run.channel, ts: run.working, actionId: CANCEL });
    const ended = await endOfCancelled(run);
    await legacy.cancelled('Deploy (cancelled on the same replica)?');
    expect(ended.said).toBe('ask on legacy was cancelled by <@U1>.');
    expect(ended.blocks).not.toContain(CANCEL);
    expect(ended.card).toContain('Cancelled: the tool call that asked has ended');
    // The person's next run posts its result: by then the cancelled one, which ended first, posted none.
    await driver(0).slashCommand({ userId: 'U1', command: '/mcp', text: 'run fixture echo {"text":"next"}' });
    await h.posted('U1', 'echo on fixture finished');
    expect(results(run.channel)).toEqual([]);
  });

  it('stops the run when the click lands on another replica, as on the one running it', async () => {
    const run = await runAsking('U2', 'Deploy (cancelled elsewhere)?');
    await driver(1).clickButton({ userId: 'U2', channel: run.channel, ts: run.working, actionId: CANCEL });
    const ended = await endOfCancelled(run);
    await legacy.cancelled('Deploy (cancelled elsewhere)?');
    expect(ended.said).toBe('ask on legacy was cancelled by <@U2>.');
    expect(ended.card).toContain('Cancelled: the tool call that asked has ended');
    await driver(0).slashCommand({ userId: 'U2', command: '/mcp', text: 'run fixture echo {"text":"next"}' });
    await h.posted('U2', 'echo on fixture finished');
    expect(results(run.channel)).toEqual([]);
  });

  it('refuses a colleague’s click privately, and the run goes on', async () => {
    const run = await runAsking('U3', 'Deploy (a colleague clicks)?');
    await driver(1).clickButton({ userId: 'U4', channel: run.channel, ts: run.working, actionId: CANCEL });
    const refused = await note('Only <@U3> can cancel this run.');
    expect(refused.args).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    await driver(0).clickButton({ userId: 'U3', channel: run.channel, ts: run.working, actionId: CANCEL });
    expect((await endOfCancelled(run)).said).toBe('ask on legacy was cancelled by <@U3>.');
  });

  it('cancels once for a double click, and tells a click that comes after the run ended', async () => {
    const run = await runAsking('U5', 'Deploy (double click)?');
    const double = lateClicks(1);
    const late = lateClicks(0);
    for (const clicks of [double, double, late]) {
      await clicks.driver.clickButton({
        userId: 'U5',
        channel: run.channel,
        ts: run.working,
        actionId: CANCEL,
      });
    }
    await double.deliver();
    await note('This run is already being cancelled.');
    await endOfCancelled(run);
    await late.deliver();
    await note('This run has already ended; there is nothing to cancel.');
    await legacy.cancelled('Deploy (double click)?');
    const cancelledUpdates = h.standin.calls.filter(
      (c) =>
        c.method === 'chat.update' &&
        c.args.ts === run.working &&
        String(c.args.text).includes('was cancelled'),
    );
    expect(cancelledUpdates).toHaveLength(1);
  });

  it('cancels a task-augmented run’s task on the server (tasks/cancel) and reads no result of it', async () => {
    const channel = h.standin.dmChannelOf('U6');
    await driver(0).slashCommand({ userId: 'U6', command: '/mcp', text: 'run tasks slow {}' });
    const working = await postedIn(channel, (blocks) => JSON.stringify(blocks ?? '').includes(CANCEL));
    await driver(1).clickButton({ userId: 'U6', channel, ts: working, actionId: CANCEL });
    expect(await tasks.cancelled()).toHaveLength(1);
    const said = await h.standin.waitForCall(
      'chat.update',
      (c) => c.args.ts === working && String(c.args.text).includes('was cancelled by'),
      15_000,
    );
    expect(String(said.args.text)).toBe('slow on tasks was cancelled by <@U6>.');
    await driver(0).slashCommand({ userId: 'U6', command: '/mcp', text: 'run fixture echo {"text":"next"}' });
    await h.posted('U6', 'echo on fixture finished');
    expect(h.standin.calls.filter((c) => String(c.args.text).includes('slow on tasks finished'))).toEqual([]);
    expect(tasks.record.results).toBe(0);
  });
});

describe('cancelling a run that goes on in a channel’s thread', () => {
  let h: Harness;
  let legacy: Awaited<ReturnType<typeof legacyDownstream>>;
  beforeAll(async () => {
    legacy = await legacyDownstream();
    h = await startHarness({
      servers: { legacy: { url: legacy.url, slack: { route: 'thread' } } },
      workspace: { channels: { C0TEAM: ['U1', 'U2', 'U0STANDINBOT'] } },
    });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await legacy.close();
  });

  it('refuses a colleague in the channel, who sees the button, and stops the run for the person who ran it', async () => {
    const message = 'Deploy from the channel?';
    await h.driver.slashCommand({
      userId: 'U1',
      command: '/mcp',
      text: `run legacy ask ${JSON.stringify({ message })}`,
      channelId: 'C0TEAM',
    });
    const working = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === 'C0TEAM' && JSON.stringify(c.args.blocks ?? '').includes(CANCEL),
      30_000,
    );
    expect(working.args.thread_ts).toBeDefined();
    const posted = h.standin.messagesIn('C0TEAM').find((m) => JSON.stringify(m.blocks).includes(CANCEL));
    const at = { channel: 'C0TEAM', ts: posted?.ts ?? '' };

    await h.driver.clickButton({ userId: 'U2', ...at, actionId: CANCEL });
    const refused = await h.standin.waitForCall(
      'response_url',
      (c) => JSON.stringify(c.args).includes('can cancel this run'),
      15_000,
    );
    expect(refused.args).toMatchObject({ response_type: 'ephemeral', replace_original: false });

    await h.driver.clickButton({ userId: 'U1', ...at, actionId: CANCEL });
    const said = await h.standin.waitForCall(
      'chat.update',
      (c) => c.args.ts === at.ts && String(c.args.text).includes('was cancelled by <@U1>'),
      15_000,
    );
    expect(JSON.stringify(said.args.blocks)).not.toContain(CANCEL);
  });
});
