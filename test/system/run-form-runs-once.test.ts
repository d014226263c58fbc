// `/mcp run <server> <tool>`'s arguments form, submitted and then delivered again (Slack delivering the same
// view_submission twice, or a signed one replayed within the 5 minutes its timestamp is good for), runs the
// tool once: the run is claimed by the view id in Redis, as the JSON form of `/mcp run` is per trigger_id
// (command-replay.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HttpTransport,
  SlackDriver,
  type Delivery,
  type Outgoing,
  type SendOptions,
  type Transport,
} from '../../src/standin/index.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { redisUrl } from '../setup/context.js';
import { SIGNING_SECRET, startHarness, type Harness } from './harness.js';

/** Slack's side, keeping every request it delivered so one can be delivered again. */
class RecordingTransport implements Transport {
  readonly sent: Outgoing[] = [];
  constructor(private readonly inner: Transport) {}
  deliver(out: Outgoing, opts?: SendOptions): Promise<Delivery> {
    this.sent.push(out);
    return this.inner.deliver(out, opts);
  }
}

describe('the arguments form of /mcp run delivered twice', () => {
  let h: Harness;
  let transport: RecordingTransport;
  let driver: SlackDriver;
  beforeAll(async () => {
    h = await startHarness();
    const eventsUrl = `http://127.0.0.1:${h.relay.port}/slack/events`;
    transport = new RecordingTransport(
      new HttpTransport({ eventsUrl, signingSecret: SIGNING_SECRET, clock: () => Date.now() }),
    );
    driver = new SlackDriver({ transport, standin: h.standin });
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await deleteKeysUnder(redisUrl(), h.prefix);
  });

  it('runs the tool once when the same view_submission arrives twice', async () => {
    await driver.slashCommand({ userId: 'U1', command: '/mcp', text: 'run fixture echo' });
    await h.standin.waitForCall(
      'views.update',
      (c) => c.ok && JSON.stringify(h.standin.openViews('U1').at(-1)?.view ?? {}).includes('"input"'),
      15_000,
    );
    const form = h.standin.openViews('U1').at(-1);
    if (!form) throw new Error('no arguments form open');
    const blocks = form.view.blocks as { type: string; block_id: string }[];
    const input = blocks.find((b) => b.type === 'input');
    if (!input) throw new Error('no input in the arguments form');
    const marker = JSON.stringify({ run: `once ${Date.now()}` });
    const submitted = await driver.submitView({
      userId: 'U1',
      viewId: form.id,
      values: { [input.block_id]: marker },
    });
    expect(submitted.body).toBe('');
    const submission = transport.sent.at(-1);
    if (!submission) throw new Error('no submission recorded');
    expect(await h.toolResult('U1')).toEqual(JSON.parse(marker));

    // The same submission delivered again.
    const again = await driver.send(submission);
    // Acked empty: the second delivery only closes the form.
    expect([again.status, again.body]).toEqual([200, '']);
    const dm = h.standin.dmChannelOf('U1');
    const results = () =>
      h.standin
        .messagesIn(dm)
        .filter(
          (m) =>
            JSON.stringify(m.blocks ?? '').includes('echo') &&
            JSON.stringify(m.blocks ?? '').includes('once'),
        );
    // Long enough for a second run (the first took well under this).
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(
      results(),
      'the tool ran again for a second delivery of the same arguments form: a form submission must run its tool once',
    ).toHaveLength(1);
  });
});
