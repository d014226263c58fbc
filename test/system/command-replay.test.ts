// A slash command Slack delivers again, or a signed one replayed, runs its tool once across replicas (issue 15,
// item 8): the first delivery of a trigger_id runs it, every other is told it is already running. Each
// delivery is acked at once, empty; what it means comes through its response_url.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerTo, answersTo, commandAnswer } from '../support/command-answers.js';
import { startHarness, type Harness } from './harness.js';

describe('a replayed /mcp run', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ replicas: 2 });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('runs the tool once when the same signed command arrives ten times on two replicas', async () => {
    const request = h.driver.slashCommandRequest({
      userId: 'U1',
      command: '/mcp',
      text: `run fixture echo ${JSON.stringify({ text: JSON.stringify({ run: 'once only' }) })}`,
    });
    const deliveries = await Promise.all(
      Array.from({ length: 10 }, (_, i) => h.drivers[i % 2]!.send(request)),
    );
    expect(deliveries.map((d) => [d.status, d.body])).toEqual(Array(10).fill([200, '']));
    // Each delivery is answered through the response_url once the run is claimed.
    await h.standin.waitForCall('response_url', () => answersTo(h.standin, request).length === 10);
    const answers = answersTo(h.standin, request).map((c) => String(c.args.text));
    expect(answers.filter((text) => text.startsWith('Running'))).toHaveLength(1);
    expect(answers.filter((text) => text.includes('is already running for this command'))).toHaveLength(9);
    // The fixture's echo answers the text it got; the harness reads a result message's text as JSON.
    expect(await h.toolResult('U1')).toEqual({ run: 'once only' });
    const results = h.standin
      .messagesIn(h.standin.dmChannelOf('U1'))
      .filter((m) => JSON.stringify(m.blocks ?? '').includes('once only'));
    expect(results).toHaveLength(1);
  });

  it("acks a run at once while the person's locale is still being asked of Slack, then runs it once", async () => {
    // A person's first command looks up their locale (users.info); before, the ack waited for it, so a slow
    // Slack made the ack late (Bolt answers 404 after 3 s), the late ack() threw and the claimed run never ran.
    const held = h.standin.holdNext('users.info');
    const request = h.driver.slashCommandRequest({
      userId: 'U3',
      command: '/mcp',
      text: `run fixture echo ${JSON.stringify({ text: JSON.stringify({ run: 'slow slack' }) })}`,
    });
    const ack = h.driver.send(request);
    await held.arrived;
    expect(await ack).toEqual({ status: 200, body: '' });
    held.release();
    expect(String((await answerTo(h.standin, request)).args.text)).toMatch(/^Running/);
    expect(await h.toolResult('U3')).toEqual({ run: 'slow slack' });
  });

  it('runs a command typed again (a new trigger_id) again', async () => {
    for (const text of ['first', 'second']) {
      const request = h.driver.slashCommandRequest({
        userId: 'U2',
        command: '/mcp',
        text: `run fixture echo ${JSON.stringify({ text: JSON.stringify({ run: text }) })}`,
      });
      expect((await commandAnswer((r) => h.driver.send(r), h.standin, request)).text).toMatch(/^Running/);
      expect(await h.toolResult('U2')).toEqual({ run: text });
    }
  });
});
