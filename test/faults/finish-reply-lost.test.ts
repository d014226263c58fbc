// A person's Send reaches Redis and the finish script applies, but its reply never comes back on that connection
// (a network hiccup after the write: the proxy holds Redis's replies until the bot drops the silent connection,
// and ioredis sends the command again on the new one). The run again finds its own win (the finish call's id in
// the record), so the replica that won still counts the end (README Metrics: "counted by the replica whose
// transition won"), exactly once, and the server gets the answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUrl } from '../setup/context.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { parseSamples } from '../support/prometheus.js';
import { startReplyDroppingProxy, type ReplyDroppingProxy } from './support/reply-dropping-proxy.js';
import { inputLabelled, openForm, startHarness, type Harness } from '../system/harness.js';
import { until } from '../support/until.js';

const ANSWER = 'Ada-lost-reply-9917';
const SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name' } },
  required: ['name'],
};

let proxy: ReplyDroppingProxy;
let h: Harness;
beforeAll(async () => {
  proxy = await startReplyDroppingProxy(redisUrl());
  h = await startHarness({ redisUrl: proxy.url });
});
afterAll(async () => {
  await h.close();
  await proxy.close();
  await deleteKeysUnder(redisUrl(), h.prefix);
});

async function endedCount(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${h.relay.port}/metrics`);
  const samples = parseSamples(await res.text());
  return samples
    .filter((s) => s.name === 'elicit_relay_questions_ended_total')
    .reduce((sum, s) => sum + s.value, 0);
}

describe('a winning finish whose reply is lost', () => {
  it('counts the accepted question once', { timeout: 60_000 }, async () => {
    const card = await h.ask('U1', SCHEMA, 'Your name?');
    const viewId = await openForm(h, 'U1', card);
    const block = inputLabelled(h, viewId, 'Name');
    expect(await endedCount()).toBe(0);

    // The finish script's call carries the answer: Redis applies it, its reply is lost on the way back.
    const dropped = proxy.dropRepliesAfter(ANSWER);
    const submitted = h.driver.submitView({ userId: 'U1', viewId, values: { [block]: ANSWER } });
    await dropped.matched;
    await submitted;

    // The finish did apply: the MCP server gets the person's answer.
    expect(await h.toolResult('U1')).toEqual({ action: 'accept', content: { name: ANSWER } });
    await until('the end is counted', 10_000, async () => (await endedCount()) > 0);
    expect(await endedCount(), 'elicit_relay_questions_ended_total counts the end once').toBe(1);
  });
});
