// A server that elicits when no tool call of this bot is in flight (here: 500 ms after returning its result)
// asks nobody's question: it is refused with -32600, unless the server's config names who gets such questions.
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../slack/log-capture.js';
import { startHarness, type Harness } from './harness.js';

const ANSWERED = 'unsolicited elicitation answered: ';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const cardsIn = (harness: Harness, channel: string): unknown[] =>
  harness.standin
    .messagesIn(channel)
    .filter((m) => JSON.stringify(m.blocks ?? '').includes('elicit_respond'));

describe('an elicitation no tool call caused', () => {
  it('is refused with -32600 and posts no card to whoever called last', async () => {
    const logs = captureLogs('debug');
    const harness = (h = await startHarness({ logger: logs.logger }));
    await harness.driver.slashCommand({
      userId: 'U1',
      command: '/mcp',
      text: 'run fixture ask_after_return {"afterMs":500}',
    });
    expect(await harness.toolResult('U1')).toEqual({ returned: true });

    // The fixture reports on stderr what the client answered: the server-side rejection event.
    const line = await logs.waitFor((l) => typeof l.stderr === 'string' && l.stderr.startsWith(ANSWERED));
    const answered = JSON.parse(String(line.stderr).slice(ANSWERED.length)) as {
      error: { code: number; message: string };
    };
    expect(answered.error.code).toBe(-32600);
    expect(answered.error.message).toMatch(/^MCP error -32600: No tool call of this client is in flight/);
    expect(cardsIn(harness, harness.standin.dmChannelOf('U1'))).toEqual([]);
  });

  it('goes to the person elicitation.unsolicited names, when the config names one', async () => {
    const harness = (h = await startHarness({ policy: { unsolicited: { user: 'U2' } } }));
    await harness.driver.slashCommand({
      userId: 'U1',
      command: '/mcp',
      text: 'run fixture ask_after_return {"afterMs":500}',
    });
    const dm = harness.standin.dmChannelOf('U2');
    await harness.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === dm && JSON.stringify(c.args.blocks ?? '').includes('elicit_respond'),
      15_000,
    );
    expect(cardsIn(harness, harness.standin.dmChannelOf('U1'))).toEqual([]);
  });
});
