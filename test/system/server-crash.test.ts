// A stdio MCP server that crashes while its question waits in Slack: the question ends as cancelled
// (the call that asked has ended), its card loses its buttons, the person is told the call failed, a
// late submit changes nothing, and the next /mcp run starts a fresh child.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionStore } from '../../src/store/index.js';
import { redisUrl } from '../setup/context.js';
import { questionIdOnCard, resultText } from '../support/slack-text.js';
import { startHarness, type Harness } from './harness.js';

const SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

/** Every fixture server this test process runs (the bot is in-process, so they are our children). */
function fixtureChildren(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const ppid = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1];
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return ppid === String(process.pid) && cmdline.includes('elicit-server');
      } catch {
        return false; // the process ended while we looked
      }
    })
    .map(Number);
}

describe('a stdio MCP server that crashes mid-question', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('ends the question as cancelled with its card updated, and a new call starts the server again', async () => {
    const card = await h.ask('U1', SCHEMA);
    const questionId = questionIdOnCard(h.standin.message(card.channel, card.ts)?.blocks);
    const children = fixtureChildren();
    expect(children.length).toBeGreaterThan(0);
    for (const pid of children) process.kill(pid, 'SIGKILL');

    const updated = await h.standin.waitForCall('chat.update', (c) => c.ok && c.args.ts === card.ts, 15_000);
    const blocks = JSON.stringify(updated.args.blocks);
    expect(blocks).not.toContain('elicit_respond');
    expect(blocks).toContain('the tool call that asked has ended');
    const failure = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && c.args.channel === card.channel && JSON.stringify(c.args.blocks).includes('failed'),
      15_000,
    );
    expect(JSON.stringify(failure.args.blocks)).toContain(':warning: *ask* on *fixture* failed');
    expect(resultText(failure.args.blocks)).toBe('connection to fixture closed during tool ask');

    const store = await QuestionStore.open({ url: redisUrl(), prefix: h.prefix, holderId: 'inspector' });
    try {
      expect(await store.get(questionId)).toMatchObject({
        state: 'cancelled',
        outcome: { action: 'cancel' },
        reason: 'call_ended',
      });
    } finally {
      await store.close();
    }

    const again = await h.ask('U1', SCHEMA);
    expect(again.ts).not.toBe(card.ts);
    expect(fixtureChildren().some((pid) => !children.includes(pid))).toBe(true);
  });
});
