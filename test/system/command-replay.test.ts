// A slash command Slack delivers again, or a signed one replayed, runs its tool once across replicas (issue 15,
// item 8): the first delivery of a trigger_id runs it, every other is told it is already running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const acks = deliveries.map((d) => (d.json as { text?: string } | undefined)?.text ?? d.body);
    expect(deliveries.map((d) => d.status)).toEqual(Array(10).fill(200));
    expect(acks.filter((text) => text.startsWith('Running'))).toHaveLength(1);
    expect(acks.filter((text) => text.includes('is already running for this command'))).toHaveLength(9);
    // The fixture's echo answers the text it got; the harness reads a result message's text as JSON.
    expect(await h.toolResult('U1')).toEqual({ run: 'once only' });
    const results = h.standin
      .messagesIn(h.standin.dmChannelOf('U1'))
      .filter((m) => JSON.stringify(m.blocks ?? '').includes('once only'));
    expect(results).toHaveLength(1);
  });

  it('runs a command typed again (a new trigger_id) again', async () => {
    for (const text of ['first', 'second']) {
      const ack = await h.driver.slashCommand({
        userId: 'U2',
        command: '/mcp',
        text: `run fixture echo ${JSON.stringify({ text: JSON.stringify({ run: text }) })}`,
      });
      expect((ack.json as { text: string }).text).toMatch(/^Running/);
      expect(await h.toolResult('U2')).toEqual({ run: text });
    }
  });
});
