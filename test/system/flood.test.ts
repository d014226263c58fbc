// A server that floods elicitations: beyond its `maxPending` (default 20) the extra requests are answered
// at once with a JSON-RPC error naming the limit and the config key, and Slack only sees the cards that fit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultText } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

const isCard = (blocks: unknown): boolean => JSON.stringify(blocks ?? '').includes('elicit_respond');

interface FloodAnswer {
  action?: string;
  error?: { code: number; message: string };
}

/** Runs the fixture's `flood` tool as U1, waits for `cards` cards, declines them all and returns the answers. */
async function floodAndDecline(h: Harness, count: number, cards: number): Promise<FloodAnswer[]> {
  await h.driver.slashCommand({
    userId: 'U1',
    command: '/mcp',
    text: `run fixture flood {"count": ${count}}`,
  });
  const channel = h.standin.dmChannelOf('U1');
  const cardPosts = (): number =>
    h.standin.calls.filter((c) => c.method === 'chat.postMessage' && c.ok && isCard(c.args.blocks)).length;
  // Slack takes about one message a second per channel (the outbox keeps to it), so 20 cards take ~20 s.
  await h.standin.waitForCall('chat.postMessage', () => cardPosts() >= cards, 60_000);
  for (const card of h.standin.messagesIn(channel).filter((m) => isCard(m.blocks))) {
    await h.driver.clickButton({ userId: 'U1', channel, ts: card.ts, actionId: 'elicit_decline' });
  }
  const result = await h.standin.waitForCall(
    'chat.postMessage',
    (c) =>
      c.ok &&
      c.args.channel === channel &&
      !isCard(c.args.blocks) &&
      resultText(c.args.blocks).startsWith('['),
    15_000,
  );
  expect(cardPosts()).toBe(cards);
  return JSON.parse(resultText(result.args.blocks)) as FloodAnswer[];
}

function expectRefusals(answers: FloodAnswer[], declined: number, refused: number, limit: string): void {
  expect(answers.filter((a) => a.action === 'decline')).toHaveLength(declined);
  const refusals = answers.filter((a) => a.error !== undefined);
  expect(refusals).toHaveLength(refused);
  for (const { error } of refusals) {
    // Exactly what the server's SDK makes of our refusal: its "MCP error <code>: " prefix once (#15.13).
    expect(error).toEqual({
      code: -32600,
      message:
        `MCP error -32600: too many questions from fixture are waiting for an answer (${limit}); try again ` +
        'once one has ended, or raise mcpServers.fixture.elicitation.maxPending',
    });
  }
}

describe('a server flooding elicitations, with maxPending 2 in its config', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ policy: { maxPending: 2 } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('gets -32600 beyond maxPending at once, and only the cards that fit are posted', async () => {
    expectRefusals(await floodAndDecline(h, 5, 2), 2, 3, 'maxPending 2');
  });
});

// One flood of 21 serves both checks: 20 cards wait for their paced posts (~20 s), the 21st is refused.
describe('a server flooding 21 elicitations with the default limits, 20 cards waiting for their paced posts', () => {
  let h: Harness;
  let answers: FloodAnswer[];
  const warnings: string[] = [];
  beforeAll(async () => {
    h = await startHarness();
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      answers = await floodAndDecline(h, 21, 20);
      // process.emitWarning delivers on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
  }, 120_000);
  afterAll(async () => {
    await h.close();
  });

  it('gets -32600 naming maxPending 20 and its config key for the 21st open question', () => {
    expectRefusals(answers, 20, 1, 'maxPending 20');
  });

  it('emits no MaxListenersExceededWarning while 20 cards wait for their paced posts', () => {
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
