// A -32042 answer's Retry is clicked when the person is back from the links, maybe on another replica than
// the one that ran the call (Slack sends a click to any), or after their session idled out: the rerun then
// needs a new MCP session, which starts opening as soon as the click arrives, while the retry is claimed and
// announced, not after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childPids, startedChild } from '../support/child-pids.js';
import { commandAnswer } from '../support/command-answers.js';
import { startHarness, type Harness } from './harness.js';

describe('a Retry clicked on another replica', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ replicas: 2 });
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('opens the person’s MCP session there while the retry is claimed and announced, and reruns the call on it', async () => {
    // Each replica's own (control) session to the server is open before the count starts (its tools listed), so
    // it knows the server's era: a first session without that starts a probe process too, which the count sees.
    for (const driver of h.drivers) {
      const request = driver.slashCommandRequest({ userId: 'U2', command: '/mcp', text: 'tools fixture' });
      const { answer } = await commandAnswer((r) => driver.send(r), h.standin, request);
      expect(String(answer.args.text)).toContain('Tools of fixture');
    }
    const args = JSON.stringify({ url: 'https://auth.example.com/sign-in' });
    await h.drivers[0]!.slashCommand({
      userId: 'U1',
      command: '/mcp',
      text: `run fixture require_url_once ${args}`,
    });
    await h.posted('U1', 'needs you to open these links');
    const channel = h.standin.dmChannelOf('U1');
    const ts =
      h.standin.messagesIn(channel).find((m) => JSON.stringify(m.blocks).includes('mcp_retry'))?.ts ?? '';
    const before = childPids();
    // The click's "Retrying…" replaces the links through its response_url: held there, the rerun cannot start.
    const held = h.standin.holdNext('response_url');
    await h.drivers[1]!.clickButton({ userId: 'U1', channel, ts, actionId: 'mcp_retry' });
    await held.arrived;
    const warmed = await startedChild(before);
    held.release();
    // The rerun ran on that session: the fixture keeps who signed in per process, so this new one asks again.
    await h.posted('U1', 'needs you to open these links');
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([warmed]);
  });
});
